package publish

import (
	"fmt"
	"strconv"
	"strings"
)

// ByteSize is a size written as 1GiB, 500MiB, 10MB or a plain byte count.
type ByteSize int64

var units = []struct {
	suffix string
	mult   int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
}

// EnvDecode implements envconfig.Decoder.
func (b *ByteSize) EnvDecode(v string) error {
	s := strings.ToLower(strings.TrimSpace(v))
	mult := int64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return fmt.Errorf("%q is not a size such as 1GiB, 500MiB or 1048576", v)
	}
	*b = ByteSize(n * mult)
	return nil
}

func (b ByteSize) String() string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", b>>30)
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", b>>20)
	}
	return fmt.Sprintf("%d bytes", int64(b))
}
