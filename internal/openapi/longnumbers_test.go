package openapi

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/docs-publish/docs-publish/internal/growthtest"
	"github.com/docs-publish/docs-publish/internal/testenv"
)

// FuzzScanInt holds scanInt to math/big's SetString(t, 0), which it stands
// in for: the same strings accepted, with the same value.
func FuzzScanInt(f *testing.F) {
	for _, s := range []string{"0", "-0", "+5", "0x1F", "0X_1f", "0o17", "0O17", "017", "08", "0b101", "0b", "0_17", "1__0", "1_0", "_1", "1_", "-", "", "0x", "+-1", "0xg", "1e3", "099", "0_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		want, wantOK := new(big.Int).SetString(s, 0)
		neg, digits, base, ok := scanInt(s)
		if ok != wantOK {
			t.Fatalf("scanInt(%q) ok %v, SetString %v", s, ok, wantOK)
		}
		if !ok {
			return
		}
		got, _ := new(big.Int).SetString(digits, base)
		if got == nil {
			t.Fatalf("scanInt(%q) gave digits %q in base %d", s, digits, base)
		}
		if neg {
			got.Neg(got)
		}
		if got.Cmp(want) != 0 {
			t.Fatalf("scanInt(%q) is %v, SetString %v", s, got, want)
		}
	})
}

// TestLongIntegers: integers of any length are read without conversion
// where none is needed, and refused as too large from 2^1024 on without
// one where one would be.
func TestLongIntegers(t *testing.T) {
	t.Parallel()
	pow2 := func(n uint) string { return new(big.Int).Lsh(big.NewInt(1), n).String() }
	cases := []struct {
		name, in, want string // want "" is too large
		tagged         bool
	}{
		{"decimal keeps its digits", "000" + strings.Repeat("9", 300), strings.Repeat("9", 300), false},
		{"negative decimal", "-0" + strings.Repeat("9", 300), "-" + strings.Repeat("9", 300), false},
		{"negative zero", "-000", "0", false},
		{"decimal too large", strings.Repeat("9", 400), "", false},
		{"hex 2^1020", "0x1" + strings.Repeat("0", 255), pow2(1020), false},
		{"hex 2^1024", "0x1" + strings.Repeat("0", 256), "", false},
		{"hex with leading zeros", "0x" + strings.Repeat("0", 1000) + "ff", "255", false},
		{"octal 2^1023", "0o1" + strings.Repeat("0", 341), pow2(1023), false},
		{"octal 2^1026", "0o1" + strings.Repeat("0", 342), "", false},
		{"tagged binary 2^1023", "0b1" + strings.Repeat("0", 1023), pow2(1023), true},
		{"tagged binary 2^1024", "0b1" + strings.Repeat("0", 1024), "", true},
		{"tagged underscores", "1_" + strings.Repeat("0", 300), "1" + strings.Repeat("0", 300), true},
		{"tagged octal 0", "-0_17", "-15", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got string
			var err error
			if tc.tagged {
				got, err = intLiteral(tc.in)
			} else {
				var k Kind
				if k, got, err = plainScalar(tc.in); err == nil && k != Number {
					t.Fatalf("kind %v, want a number", k)
				}
			}
			if tc.want == "" {
				if err == nil || !strings.Contains(err.Error(), "too large") {
					t.Errorf("%.20s…: %.30q, %v; want too large", tc.in, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("%.20s…: %.30q…, %v; want %.30q…", tc.in, got, err, tc.want)
			}
		})
	}
	if got := plainKey("0x1" + strings.Repeat("0", 256)); got != "Infinity" {
		t.Errorf("key 0x1 and 256 zeros is %.20q, want Infinity", got)
	}
	if got := plainKey("0x" + strings.Repeat("0", 100) + "1F"); got != "31" {
		t.Errorf("key 0x0…1F is %q, want 31", got)
	}
}

// TestShortNumberKeepsWhatNumReads: num reads a long number as it read
// the whole text, to its 128 bits.
func TestShortNumberKeepsWhatNumReads(t *testing.T) {
	t.Parallel()
	for _, lit := range []string{
		"1." + strings.Repeat("3", 200),
		"-" + strings.Repeat("7", 200) + ".5e-30",
		"0.000" + strings.Repeat("0", 100) + "12345678901234567890123456789012345678901234567890123",
		strings.Repeat("1", 100) + "E+5",
		"0." + strings.Repeat("0", 100),
		"12.5",
	} {
		want, _, err := big.ParseFloat(lit, 10, 128, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		got := num(NewScalar(Number, lit))
		if got == nil || got.Cmp(want) != 0 {
			t.Errorf("num(%.30s…) = %v, want %v (shortened to %s)", lit, got, want, shortNumber(lit))
		}
	}
}

// TestErrorsShowLongScalarsCut: an error about a number of many digits
// shows its start and its length, not the whole, by every path that reads
// one: such an error costs every sink a copy of it (a 4 MB integer cost 130
// MB where the same error without its text costs 35).
func TestErrorsShowLongScalarsCut(t *testing.T) {
	t.Parallel()
	const n = 100_000
	digits := strings.Repeat("7", n)
	cases := []struct {
		name, file, doc, want string
		shownLen              int // the length the error gives
		prepare               bool
	}{
		{"YAML integer", "a.yaml", "openapi: 3.0.3\nx-n: " + digits + "\n", "too large", n, false},
		{"YAML float", "a.yaml", "openapi: 3.0.3\nx-n: -" + digits + ".5\n", "too large", n + 3, false},
		{"YAML tagged integer", "a.yaml", "openapi: 3.0.3\nx-n: !!int 0x" + strings.Repeat("é", n) + "\n", "not an integer", 2 + 2*n, false},
		{"YAML tagged float", "a.yaml", "openapi: 3.0.3\nx-n: !!float \"1" + digits + "x\"\n", "not a number", n + 2, false},
		{"JSON integer, the tree", "a.json", `{"openapi":"3.0.3","x-n":` + digits + "}", "too large", n, false},
		{"JSON integer, the single pass", "a.json", `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-n":` + digits + "}", "too large", n, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var err error
			if tc.prepare {
				_, err = Prepare(t.Context(), mapFS(map[string]string{tc.file: tc.doc}), tc.file, PrepareOptions{Bundle: true}, &discard{})
			} else {
				_, err = Parse(tc.file, []byte(tc.doc))
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want %q", err, tc.want)
			}
			msg := err.Error()
			if len(msg) > 1000 || !strings.Contains(msg, fmt.Sprintf("(%d bytes)", tc.shownLen)) || !utf8.ValidString(msg) || strings.Contains(msg, `\x`) {
				t.Errorf("error of %d bytes, want under 1000 that gives the scalar's length, %d, and cuts no character in two: %.300q", len(msg), tc.shownLen, msg)
			}
			if strings.Contains(msg, `bytes)"`) {
				t.Errorf("the scalar's length is inside its quotes: %.300q", msg)
			}
		})
	}
}

// TestLongNumbersCostLinear: a YAML integer of n digits (refused as too
// large) and a float of n digits (kept, and read by validation as a
// parameter's default) cost bytes in proportion to n: math/big, which read
// them before, allocates n² bytes (5M digits: 41 s). Not parallel: it
// counts allocations.
func TestLongNumbersCostLinear(t *testing.T) {
	testenv.Long(t) // parses numbers of 400,000 digits
	doc := func(n int) []byte {
		return fmt.Appendf(nil, "openapi: 3.0.3\ninfo: {title: T, version: \"1\"}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, in: query, schema: {type: number, maximum: 1, default: 1.%s}}]\n      responses: {'200': {description: ok}}\n", strings.Repeat("3", n))
	}
	growthtest.Linear(t, "a float of n digits", 100_000, func(n int) {
		root, err := Parse("a.yaml", doc(n))
		if err != nil {
			t.Fatal(err)
		}
		if f := Validate(root); len(f) != 1 || !strings.Contains(f[0].Msg, "outside minimum..maximum") {
			t.Fatalf("findings %v, want the default outside minimum..maximum", f)
		}
	})
	growthtest.Linear(t, "an integer of n digits", 100_000, func(n int) {
		_, err := Parse("a.yaml", fmt.Appendf(nil, "openapi: 3.0.3\nx-n: %s\n", strings.Repeat("7", n)))
		if err == nil || !strings.Contains(err.Error(), "too large") {
			t.Fatalf("an integer of %d digits: %v, want too large", n, err)
		}
	})
}
