package publish

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The kinds of input value, each read by its own decoder (go-envconfig calls
// EnvDecode), whose error says what to write instead.

// ValueError is an input value its kind cannot read. The caller knows which
// input it was and wraps it in an *InputError.
type ValueError struct {
	Value string
	Want  string // what to write instead, such as "true or false"
}

func (e *ValueError) Error() string { return fmt.Sprintf("%q is not valid: use %s", e.Value, e.Want) }

// Bool is an input that is true or false.
type Bool bool

// EnvDecode reads true or false, as workflows write them.
func (b *Bool) EnvDecode(v string) error {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		*b = true
	case "false":
		*b = false
	default:
		return &ValueError{Value: v, Want: "true or false"}
	}
	return nil
}

// Duration is an input that is a Go duration of more than 0: 90s, 10m,
// 1h30m.
type Duration time.Duration

// EnvDecode reads a duration of more than 0. Every Duration input is a
// limit, and 0 is refused rather than read as none: a run without a limit
// waits for as long as GitHub lets a job run.
func (d *Duration) EnvDecode(v string) error {
	parsed, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil || parsed <= 0 {
		return &ValueError{Value: v, Want: "a duration of more than 0, such as 90s, 10m or 1h"}
	}
	*d = Duration(parsed)
	return nil
}

func (d Duration) String() string { return time.Duration(d).String() }

// ByteSize is an input that is a size: 1GiB, 500MiB, 10MB or a byte count.
type ByteSize int64

var units = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
}

// EnvDecode reads a positive size.
func (b *ByteSize) EnvDecode(v string) error {
	s := strings.ToLower(strings.TrimSpace(v))
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return &ValueError{Value: v, Want: "a size such as 1GiB, 500MiB or 1048576"}
	}
	*b = ByteSize(n * mult)
	return nil
}

func (b ByteSize) String() string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", b>>30)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", b>>20)
	}
	return fmt.Sprintf("%d bytes", int64(b))
}

// Parallel is an input that is how many descriptions are under way at once:
// 1 to MaxParallel.
type Parallel int

// EnvDecode reads a whole number from 1 to MaxParallel.
func (p *Parallel) EnvDecode(v string) error {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > MaxParallel {
		return &ValueError{Value: v, Want: fmt.Sprintf("a whole number from 1 to %d", MaxParallel)}
	}
	*p = Parallel(n)
	return nil
}
