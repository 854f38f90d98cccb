package link

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Git config keys (lower-cased, as `git config --get-regexp` prints them).
const (
	KeyWindow        = "convo.window"
	KeyOverlapWeight = "convo.overlapweight"
	KeyRecencyWeight = "convo.recencyweight"
	KeyThreshold     = "convo.threshold"
)

// ParseConfig applies git config values (keys lower-cased) over the defaults.
// convo.window takes days ("14", "14d") or a Go duration ("36h").
func ParseConfig(values map[string]string) (Config, error) {
	cfg := DefaultConfig()
	if v, ok := values[KeyWindow]; ok {
		d, err := parseWindow(v)
		if err != nil {
			return cfg, fmt.Errorf("%s = %q: %v", KeyWindow, v, err)
		}
		cfg.Window = d
	}
	for key, dst := range map[string]*float64{
		KeyOverlapWeight: &cfg.OverlapWeight,
		KeyRecencyWeight: &cfg.RecencyWeight,
		KeyThreshold:     &cfg.Threshold,
	} {
		v, ok := values[key]
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f < 0 || f > 1 {
			return cfg, fmt.Errorf("%s = %q: want a number from 0 to 1", key, v)
		}
		*dst = f
	}
	return cfg, nil
}

func parseWindow(v string) (time.Duration, error) {
	v = strings.TrimSpace(strings.ToLower(v))
	days := strings.TrimSuffix(strings.TrimSuffix(v, "days"), "d")
	if n, err := strconv.ParseFloat(strings.TrimSpace(days), 64); err == nil {
		if n <= 0 {
			return 0, fmt.Errorf("want a positive number of days")
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want days (14, 14d) or a duration (36h)")
	}
	return d, nil
}
