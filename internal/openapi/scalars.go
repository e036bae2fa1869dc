package openapi

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Plain YAML scalars are read as the documentation service reads them: its
// tools parse YAML with @stoplight/yaml, which follows the YAML 1.2 core
// schema (testdata/yaml/scalars.golden.json holds what it makes of each of
// many documents, and a test holds this package to it). Where we differ on
// purpose (each marked in that table, with its reason):
//
//   - integers keep every digit: 9007199254740993 stays itself, where the
//     service's JavaScript would round it;
//   - a float keeps its literal where JSON allows it: 1.50 stays 1.50, not
//     1.5 (the same number);
//   - .inf, -.inf and .nan, which JSON cannot hold (the service would store
//     null), are an error that names the file and line: quote them to keep
//     the text; so is a number too large for the service's numbers (1e400),
//     which it would read as Infinity;
//   - a scalar with an explicit tag (!!str 123) follows its tag, where the
//     service ignores tags;
//   - two keys that read as the same text (+1: and 1.0:) are an error, where
//     the service keeps the last;
//   - block scalars follow the YAML spec where the service does not: keep
//     chomping (|+) keeps every final line break, an indentation indicator
//     (|2) adds no line break at the start, leading blank lines stay.

var (
	yamlNull   = map[string]bool{"": true, "~": true, "null": true, "Null": true, "NULL": true}
	yamlTrue   = map[string]bool{"true": true, "True": true, "TRUE": true}
	yamlFalse  = map[string]bool{"false": true, "False": true, "FALSE": true}
	yamlDec    = regexp.MustCompile(`^[-+]?[0-9]+$`)
	yamlOct    = regexp.MustCompile(`^0o[0-7]+$`)
	yamlHex    = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	yamlFloat  = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	yamlInf    = regexp.MustCompile(`^[-+]?\.(inf|Inf|INF)$`)
	yamlNaN    = regexp.MustCompile(`^\.(nan|NaN|NAN)$`)
	jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
)

// numberLike says whether a plain scalar may be a number, infinity or
// NaN: each of the patterns above starts with a sign, a dot or a digit.
// Most scalars (names, words) do not, and are told from them without the
// patterns, which cost a tenth of reading a YAML description.
func numberLike(s string) bool {
	return s != "" && strings.IndexByte("+-.0123456789", s[0]) >= 0
}

// plainScalar is what a plain (unquoted, untagged) scalar is: its kind and
// its JSON literal (the text, for a string).
func plainScalar(s string) (Kind, string, error) {
	switch {
	case yamlNull[s]:
		return Null, "null", nil
	case yamlTrue[s]:
		return Bool, "true", nil
	case yamlFalse[s]:
		return Bool, "false", nil
	case !numberLike(s):
		return String, s, nil
	case yamlDec.MatchString(s):
		return intNumber(s, strings.HasPrefix(s, "-"), strings.TrimLeft(s, "+-"), 10)
	case yamlOct.MatchString(s):
		return intNumber(s, false, s[2:], 8)
	case yamlHex.MatchString(s):
		return intNumber(s, false, s[2:], 16)
	case yamlFloat.MatchString(s):
		return number(s, floatJSON(s))
	case yamlInf.MatchString(s), yamlNaN.MatchString(s):
		return 0, "", fmt.Errorf("%s is a number JSON cannot hold (the service would store null): quote it to keep the text, or remove it", s)
	}
	return String, s, nil
}

// number is the JSON number lit, which YAML wrote as s, unless it is beyond
// the largest number the service holds.
func number(s, lit string) (Kind, string, error) {
	if err := checkRange(s, lit); err != nil {
		return 0, "", err
	}
	return Number, lit, nil
}

// intNumber is the JSON number for the integer written s, whose digits
// are in base, negative when neg, unless it is beyond the largest number
// the service holds.
func intNumber(s string, neg bool, digits string, base int) (Kind, string, error) {
	lit, err := intJSON(s, neg, digits, base)
	if err != nil {
		return 0, "", err
	}
	return Number, lit, nil
}

// checkRange refuses a number (lit, written s) beyond ±1.8e308: the
// service's JavaScript would read it as Infinity, which JSON cannot hold.
func checkRange(s, lit string) error {
	if f, err := strconv.ParseFloat(lit, 64); err != nil && math.IsInf(f, 0) {
		return tooLarge(s)
	}
	return nil
}

func tooLarge(s string) error {
	return fmt.Errorf("%s is too large for the service's numbers (it would read it as Infinity, which JSON cannot hold, and store null): quote it to keep the text, or remove it", scalarShown(s))
}

// shownBytes is about as much of a scalar as an error about it shows.
const shownBytes = 40

// scalarShown is the scalar written s as an error shows it: whole when short,
// else its start and its length, so that an error about a number of
// megabytes does not carry it (for every sink to copy) whole.
func scalarShown(s string) string {
	start, length := scalarCut(s)
	return start + length
}

// scalarQuoted is scalarShown quoted, its length outside the quotes.
func scalarQuoted(s string) string {
	start, length := scalarCut(s)
	return strconv.Quote(start) + length
}

// scalarCut is the part of s an error shows, with "…" where it is cut,
// and its length when cut.
func scalarCut(s string) (start, length string) {
	if len(s) <= shownBytes {
		return s, ""
	}
	cut := shownBytes / 2
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…", fmt.Sprintf(" (%d bytes)", len(s))
}

// maxIntBits: an integer of this many bits or more is at least 2^1024,
// beyond ±1.8e308, the largest number the service holds.
const maxIntBits = 1024

// intDecimal writes the integer whose digits (no sign, prefix or
// underscores) are in base as decimal digits, exactly, in time linear in
// its length: a decimal keeps its text, without leading zeros; another
// base (2, 8 or 16) is converted only below 2^1024 (ok false beyond):
// conversion between bases costs more than linear time (math/big's
// SetString and String, a 5M-digit number 41 s), and a longer one is out
// of range anyway.
func intDecimal(digits string, base int) (dec string, ok bool) {
	digits = strings.TrimLeft(digits, "0")
	switch {
	case digits == "":
		return "0", true
	case base == 10:
		return digits, true
	case (len(digits)-1)*bits.Len(uint(base-1)) >= maxIntBits:
		return "", false
	}
	n, _ := new(big.Int).SetString(digits, base) // the caller checked the digits
	return n.String(), true
}

// intJSON writes the integer written s, whose digits are in base, negative
// when neg, as a decimal JSON literal, exactly, and checks it is in range.
func intJSON(s string, neg bool, digits string, base int) (string, error) {
	dec, ok := intDecimal(digits, base)
	if !ok {
		return "", tooLarge(s)
	}
	if neg && dec != "0" {
		dec = "-" + dec
	}
	return dec, checkRange(s, dec)
}

// scanInt reads t as math/big's SetString(t, 0) reads an integer (a sign;
// a 0b, 0o, 0x or, for octal, 0 prefix; underscores between digits), in
// one pass and without converting it: its sign, its digits without
// underscores, and their base.
func scanInt(t string) (neg bool, digits string, base int, ok bool) {
	i := 0
	if i < len(t) && (t[i] == '-' || t[i] == '+') {
		neg = t[i] == '-'
		i++
	}
	base, prev := 10, byte('.')
	if i+1 < len(t) && t[i] == '0' {
		prev = '0' // a prefix counts as a digit before an underscore
		switch t[i+1] {
		case 'b', 'B':
			base, i = 2, i+2
		case 'o', 'O':
			base, i = 8, i+2
		case 'x', 'X':
			base, i = 16, i+2
		default:
			base, i = 8, i+1
		}
	}
	start, count, sep := i, 0, false
	for ; i < len(t); i++ {
		c := t[i]
		if c == '_' {
			if prev != '0' {
				return false, "", 0, false
			}
			prev, sep = '_', true
			continue
		}
		if digitValue(c) >= base {
			return false, "", 0, false
		}
		prev = '0'
		count++
	}
	if count == 0 || prev == '_' {
		return false, "", 0, false
	}
	digits = t[start:]
	if sep {
		digits = strings.ReplaceAll(digits, "_", "")
	}
	return neg, digits, base, true
}

// digitValue is c's value as a digit of a base up to 36, or 36.
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 10
	}
	return 36
}

// floatJSON keeps a float's literal when JSON allows it (1.50 stays 1.50),
// and otherwise writes the same number in JSON's form (+.5 is 0.5, 01.5 is
// 1.5, 1. is 1.0).
func floatJSON(s string) string {
	t := strings.TrimPrefix(s, "+")
	if jsonNumber.MatchString(t) {
		return t
	}
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	mant, exp, hasExp := strings.Cut(t, "e")
	if !hasExp {
		mant, exp, hasExp = strings.Cut(t, "E")
	}
	whole, frac, _ := strings.Cut(mant, ".")
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	if frac == "" {
		frac = "0"
	}
	out := whole + "." + frac
	if hasExp {
		out += "e" + exp
	}
	if neg {
		out = "-" + out
	}
	return out
}

// plainKey is the key a plain scalar is, as the service reads it: the text
// of the value it resolves to (0x1F: is "31", 1.50: is "1.5", ~: is "null").
func plainKey(s string) string {
	switch {
	case yamlNull[s]:
		return "null"
	case yamlTrue[s]:
		return "true"
	case yamlFalse[s]:
		return "false"
	case !numberLike(s):
		return s
	case yamlDec.MatchString(s):
		dec, _ := intDecimal(strings.TrimLeft(s, "+-"), 10)
		if strings.HasPrefix(s, "-") && dec != "0" {
			dec = "-" + dec
		}
		return dec
	case yamlOct.MatchString(s):
		return intKey(s[2:], 8)
	case yamlHex.MatchString(s):
		return intKey(s[2:], 16)
	case yamlFloat.MatchString(s):
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !math.IsInf(f, 0) {
			return s
		}
		return jsNumber(f) // 1e400: is "Infinity"
	case yamlInf.MatchString(s):
		if strings.HasPrefix(s, "-") {
			return "-Infinity"
		}
		return "Infinity"
	case yamlNaN.MatchString(s):
		return "NaN"
	}
	return s
}

// intKey is the key an octal or hexadecimal integer is: its decimal
// digits, or, from 2^1024 on, "Infinity", as the service's JavaScript
// reads it.
func intKey(digits string, base int) string {
	if dec, ok := intDecimal(digits, base); ok {
		return dec
	}
	return "Infinity"
}

// jsNumber writes f as JavaScript's String(f) does: the shortest digits
// that read back as f, in plain notation from 1e-6 up to 1e21, else with
// an exponent.
func jsNumber(f float64) string {
	if f == 0 {
		return "0" // -0 too
	}
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	n := x + 1 // the value is 0.digits × 10^n
	k := len(digits)
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	out := digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	if n-1 >= 0 {
		return sign + out + "e+" + strconv.Itoa(n-1)
	}
	return sign + out + "e-" + strconv.Itoa(1-n)
}
