// Package configfile reads the file that lists the descriptions a run
// publishes (the config input): YAML, a descriptions: list whose entries
// take the action's own input names. It checks the file's shape and its
// keys, and gives each entry's values as text, as the inputs would be
// given; what each value means is the caller's to check. The file is
// untrusted input (a pull request can change it), so the inputs that
// decide where a token goes, or that the step sets as a policy, cannot be
// set in it: see StepOnly.
package configfile
