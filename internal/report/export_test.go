package report

// RandomText is randomText, for the tests outside the package.
var RandomText = randomText
