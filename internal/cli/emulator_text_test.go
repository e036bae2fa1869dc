package cli

import "testing"

// TestWrap breaks the emulator's help text into lines that fill the width
// and never pass it, a word longer than the width on a line of its own.
func TestWrap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text, indent string
		width        int
		want         string
	}{
		{"one two three four", "> ", 9, "> one two\n> three\n> four"},
		{"abcdefghijk x", "", 5, "abcdefghijk\nx"},
		{"ab cde", "", 5, "ab\ncde"},
		{"", "> ", 9, ""},
		{"  spaced   words  ", "", 40, "spaced words"},
	} {
		if got := wrap(tc.text, tc.indent, tc.width); got != tc.want {
			t.Errorf("wrap(%q, %q, %d) = %q, want %q", tc.text, tc.indent, tc.width, got, tc.want)
		}
	}
}

// TestEmulatorBuildDelayZero: --build-delay 0 is a build ready at once,
// not a mistake.
func TestEmulatorBuildDelayZero(t *testing.T) {
	t.Parallel()
	cfg, _, err := emulatorConfig([]string{"--build-delay", "0s"})
	if err != nil || cfg.BuildDelay != 0 {
		t.Errorf("--build-delay 0s: delay %v, error %v", cfg.BuildDelay, err)
	}
}
