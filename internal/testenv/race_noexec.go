//go:build !race || !unix

package testenv

func noRaceExitSleep() {}
