// Package namerule holds the rules every name that comes from untrusted input
// follows: the files a description references, the ids the service sends,
// the entries of a build it zips. A name has no hidden segment (a leading
// dot, where tools keep credentials and configuration: .git, .github,
// .env) and no character that breaks a line or changes how the text around
// it reads (controls, line and paragraph separators, bidirectional
// controls), and it is valid UTF-8.
package namerule
