// Package cli is the program's command line: the GitHub Action (inputs from
// INPUT_* variables), the same flow as a CLI for other CI systems and for
// people (flags, DOCS_PUBLISH_* variables, --help), and the demo and emulator
// subcommands. All of them read the inputs declared in action.yml.
package cli
