package openapi

import (
	"math"
	"testing"
)

// TestJSNumber: a float is written as JavaScript's String(f) writes it
// (the service reads YAML keys with JavaScript): the values are what
// String gives for each, at the edges of plain notation (1e-6 up to 1e21).
func TestJSNumber(t *testing.T) {
	t.Parallel()
	cases := []struct {
		f    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{math.Inf(1), "Infinity"},
		{math.Inf(-1), "-Infinity"},
		{math.NaN(), "NaN"},
		{7, "7"},
		{12, "12"},
		{100, "100"},
		{12.5, "12.5"},
		{-1.5, "-1.5"},
		{1e20, "100000000000000000000"},
		{123456789012345680000, "123456789012345680000"},
		{1e21, "1e+21"},
		{1.5e21, "1.5e+21"},
		{-1.5e21, "-1.5e+21"},
		{0.000001, "0.000001"},
		{0.00001234, "0.00001234"},
		{-0.000001, "-0.000001"},
		{1e-7, "1e-7"},
		{-2.5e-7, "-2.5e-7"},
		{0.1, "0.1"},
		{5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
	}
	for _, tc := range cases {
		if got := jsNumber(tc.f); got != tc.want {
			t.Errorf("jsNumber(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}
