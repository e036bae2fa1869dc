//go:build !linux

package docsapi

import "testing"

// unansweredURL needs Linux, which drops connections to a full accept
// queue unanswered.
func unansweredURL(t *testing.T) (string, bool) { return "", false }
