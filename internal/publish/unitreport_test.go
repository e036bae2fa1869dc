package publish

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/docs-publish/docs-publish/internal/report"
)

// TestUnitReporterWritesEachDescriptionInOnePiece: what descriptions
// under way at once log comes out a description at a time, each group
// titled with its label, an annotation at no place named after its
// description, one at a place left as it is, and no empty group.
func TestUnitReporterWritesEachDescriptionInOnePiece(t *testing.T) {
	t.Parallel()
	parent := &yielding{recorder: &recorder{}}
	var writing sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{}) // every description flushes at once
	const n, lines = 8, 50
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := newUnitReporter(parent, fmt.Sprintf("descriptions[%d] (d%d.yaml)", i, i), &writing)
			r.Infof("d%d: before any group", i)
			end := r.Group("update file")
			for j := range lines {
				r.Infof("d%d: line %d", i, j)
			}
			end()
			r.Group("empty")()
			r.Annotate(report.Error, "the run failed", report.Where{})
			r.Annotate(report.Warning, "a finding", report.Where{File: fmt.Sprintf("d%d.yaml", i), Line: 3})
			if err := r.SetOutput("doc-id", "17"); err != nil {
				t.Error(err)
			}
			<-start
			r.flush()
		}()
	}
	close(start)
	wg.Wait()
	log := strings.Split(parent.log(), "\n")
	if len(log) != n*(lines+6) {
		t.Fatalf("%d lines, want %d:\n%s", len(log), n*(lines+6), parent.log())
	}
	for k := 0; k < len(log); k += lines + 6 {
		var i int
		fmt.Sscanf(log[k], "== descriptions[%d]", &i)
		label := fmt.Sprintf("descriptions[%d] (d%d.yaml)", i, i)
		want := []string{"== " + label, fmt.Sprintf("d%d: before any group", i), "== " + label + ": update file"}
		for j := range lines {
			want = append(want, fmt.Sprintf("d%d: line %d", i, j))
		}
		want = append(want, "== "+label, "error: :0:0: "+label+": the run failed", fmt.Sprintf("warning: d%d.yaml:3:0: a finding", i))
		for j, w := range want {
			if log[k+j] != w {
				t.Fatalf("line %d is %q, want %q:\n%s", k+j, log[k+j], w, parent.log())
			}
		}
	}
	if len(parent.outputs) != 0 {
		t.Errorf("outputs %v: a description's are not the step's", parent.outputs)
	}
}

// yielding is a recorder that lets other goroutines run after every line,
// so that lines written without a lock would interleave.
type yielding struct{ *recorder }

func (y *yielding) Infof(format string, args ...any) {
	y.recorder.Infof(format, args...)
	runtime.Gosched()
}
func (y *yielding) Group(title string) func() {
	end := y.recorder.Group(title)
	runtime.Gosched()
	return end
}
