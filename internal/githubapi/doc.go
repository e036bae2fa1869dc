// Package githubapi is what a run needs of GitHub's REST API: the files of a
// commit (a pull request's base, read without checking it out) and one
// sticky comment per description on a pull request.
//
// It speaks to the few REST endpoints it needs, and to GraphQL's viewer
// query, which names an installation token's bot account, over net/http
// rather than through github.com/google/go-github, which would add 4.6 MB to a binary whose
// image must stay under 25 MB.
package githubapi
