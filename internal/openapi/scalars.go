package openapi

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
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
	case yamlDec.MatchString(s):
		return number(s, bigInt(s, 10))
	case yamlOct.MatchString(s):
		return number(s, bigInt(s[2:], 8))
	case yamlHex.MatchString(s):
		return number(s, bigInt(s[2:], 16))
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

// checkRange refuses a number (lit, written s) beyond ±1.8e308: the
// service's JavaScript would read it as Infinity, which JSON cannot hold.
func checkRange(s, lit string) error {
	if f, err := strconv.ParseFloat(lit, 64); err != nil && math.IsInf(f, 0) {
		return fmt.Errorf("%s is too large for the service's numbers (it would read it as Infinity, which JSON cannot hold, and store null): quote it to keep the text, or remove it", s)
	}
	return nil
}

// bigInt writes the integer s (in base) as a decimal JSON literal, exactly.
func bigInt(s string, base int) string {
	n, _ := new(big.Int).SetString(s, base) // the pattern checked it
	return n.String()
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
	case yamlDec.MatchString(s):
		return bigInt(s, 10)
	case yamlOct.MatchString(s):
		return bigInt(s[2:], 8)
	case yamlHex.MatchString(s):
		return bigInt(s[2:], 16)
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
