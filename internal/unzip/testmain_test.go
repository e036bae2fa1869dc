package unzip

import (
	"testing"

	"github.com/docs-publish/docs-publish/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
