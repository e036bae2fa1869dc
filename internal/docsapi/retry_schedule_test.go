package docsapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// TestBackOffGrowsToThirtySeconds: the wait between attempts grows from
// the first retry up to half a minute and stays there, never dropping to
// no wait at all.
func TestBackOffGrowsToThirtySeconds(t *testing.T) {
	t.Parallel()
	b := newBackOff(time.Second)
	var last time.Duration
	for range 30 {
		last = b.NextBackOff()
	}
	if last < 15*time.Second || last > 45*time.Second {
		t.Errorf("after 30 attempts the wait is %s, want about 30s", last)
	}
}

// TestWaitStopsAtTheDeadline: a wait is cut to the time left, and none
// is waited once no time is left.
func TestWaitStopsAtTheDeadline(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for left, want := range map[time.Duration]time.Duration{2 * time.Second: 2 * time.Second, time.Minute: 10 * time.Second, 0: backoff.Stop, -time.Second: backoff.Stop} {
		b := capToDeadline{BackOff: backoff.NewConstantBackOff(10 * time.Second), deadline: now.Add(left), now: func() time.Time { return now }}
		if got := b.NextBackOff(); got != want {
			t.Errorf("%s left: wait %s, want %s", left, got, want)
		}
	}
}

// TestUnreachableWindow: attempts that each waited out a timeout make the
// host unreachable once their time, counted with the last one's, fills
// the window of 8 seconds.
func TestUnreachableWindow(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for took, want := range map[time.Duration]bool{unreachableWindow / 2: true, unreachableWindow/2 - time.Millisecond: false} {
		var r reachability
		if got := r.fail(t0, t0.Add(took)); got != want {
			t.Errorf("one attempt that took %s: unreachable %v, want %v", took, got, want)
		}
	}
}

// TestTargetOfAFailedRequest names the address a redirect led to, and the
// API's when the failure names none that can be read.
func TestTargetOfAFailedRequest(t *testing.T) {
	t.Parallel()
	base, _ := url.Parse("https://api.docs.example/v1")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&url.Error{Op: "Get", URL: "https://cdn.example/build.zip", Err: errors.New("refused")}, "https://cdn.example"},
		{&url.Error{Op: "Get", URL: "/relative/only", Err: errors.New("refused")}, "https://api.docs.example"},
		{&url.Error{Op: "Get", URL: "https://bad host/%zz", Err: errors.New("refused")}, "https://api.docs.example"},
		{errors.New("no address at all"), "https://api.docs.example"},
	} {
		if got := hostOf(tc.err, base); got != tc.want {
			t.Errorf("hostOf(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestCancelledBetweenAttempts: a call cancelled while it waits to retry
// says what kept failing, and the retry is logged with its wait rounded
// to 10 ms.
func TestCancelledBetweenAttempts(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error_message":"the service is resting"}`))
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var logged []string
	c, err := New(mustURL(t, srv.URL), token, Options{FirstRetry: 1234567 * time.Microsecond, Logf: func(format string, args ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(format, args...))
		mu.Unlock()
		cancel() // while the call waits to retry
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListDocs(ctx, "p")
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "; the last attempt: ") || !strings.Contains(err.Error(), "the service is resting") {
		t.Errorf("error %v, want the cancel and the last attempt's answer", err)
	}
	mu.Lock()
	defer mu.Unlock()
	rounded := regexp.MustCompile(`retrying in ([0-9]*0ms|[0-9]+(\.[0-9]{1,2})?s)$`)
	if len(logged) != 1 || !rounded.MatchString(logged[0]) {
		t.Errorf("retries logged: %q; want one, its wait rounded to 10ms", logged)
	}
}

// TestDebugShowsAnswersAndNamesTheProgram: each request names the
// program, and the debug log shows each answer that has a body.
func TestDebugShowsAnswersAndNamesTheProgram(t *testing.T) {
	t.Parallel()
	var ua string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua = r.Header.Get("User-Agent")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"docs":[{"id":17}]}`))
	}))
	t.Cleanup(srv.Close)
	var debug []string
	c, err := New(mustURL(t, srv.URL), token, Options{FirstRetry: time.Millisecond, UserAgent: "docs-publish/1.2.3",
		Debugf: func(format string, args ...any) { debug = append(debug, fmt.Sprintf(format, args...)) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListDocs(context.Background(), "p"); err != nil {
		t.Fatal(err)
	}
	if ua != "docs-publish/1.2.3" {
		t.Errorf("User-Agent %q", ua)
	}
	if !strings.Contains(strings.Join(debug, "\n"), `answer 200: {"docs":[{"id":17}]}`) {
		t.Errorf("the answer is not in the debug log:\n%s", strings.Join(debug, "\n"))
	}
}

// TestShownBodyOfBytesThatStartNoCharacter: a body past the limit made of
// bytes that start no character is shown as its cut mark alone.
func TestShownBodyOfBytesThatStartNoCharacter(t *testing.T) {
	t.Parallel()
	if got := shortenTo(strings.Repeat("\x80", 20), 10); got != cutMark {
		t.Errorf("shown %q, want the cut mark alone", got)
	}
}
