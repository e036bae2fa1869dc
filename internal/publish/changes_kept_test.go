package publish

import (
	"fmt"
	"strings"
	"testing"

	"github.com/docs-publish/docs-publish/internal/apidiff"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// TestChangesBeyondWhatTheReportKeeps: the summary counts every change the
// comparison found, those it did not keep too.
func TestChangesBeyondWhatTheReportKeeps(t *testing.T) {
	t.Parallel()
	testenv.Long(t) // compares descriptions of more than a thousand paths
	const n = apidiff.MaxKept + 100
	var paths []string
	for i := range n {
		paths = append(paths, fmt.Sprintf(`"/p%d":{"get":{"responses":{"200":{"description":"ok"}}}}`, i))
	}
	doc := func(paths []string) []byte {
		return []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{` + strings.Join(paths, ",") + `}}`)
	}
	rep, err := apidiff.Compare(doc(paths), doc(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Changes) != apidiff.MaxKept || rep.Total() != n {
		t.Fatalf("%d changes kept of %d, want %d of %d", len(rep.Changes), rep.Total(), apidiff.MaxKept, n)
	}
	md := ChangesMarkdown(&Comparison{Base: "main", Report: rep}, "api.json")
	for _, want := range []string{fmt.Sprintf("**%d breaking changes**", n), fmt.Sprintf("| | | and %d more |", n-maxChangeRows)} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in:\n%.600s", want, md)
		}
	}
}
