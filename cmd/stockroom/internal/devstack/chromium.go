package devstack

import (
	"context"
	"fmt"
	"io"

	"github.com/stockroom/stockroom/configs"
	"github.com/stockroom/stockroom/core/render"
)

// ensureChromium installs Debian's chromium when rendering is on and no browser is
// installed, and says in a line whether pages drawn by script are rendered.
func ensureChromium(ctx context.Context, cfg configs.Render, stdout io.Writer) (string, error) {
	if !cfg.Enabled {
		return "off (render.enabled: pages drawn by script, such as the demo store's, fail as needing rendering)", nil
	}
	if render.ExecPath(cfg.Chromium) == "" {
		if err := aptInstall(ctx, []string{"chromium"}, "set render.chromium, or turn render.enabled off", stdout); err != nil {
			return "", err
		}
		fmt.Fprintln(stdout, "chromium installed for render.enabled")
	}
	path := render.ExecPath(cfg.Chromium)
	if path == "" {
		return "", fmt.Errorf("render.enabled: chromium is still not found after installing it; set render.chromium")
	}
	return fmt.Sprintf("on (%s, %d tabs, %s a page)", path, cfg.Tabs, cfg.Timeout), nil
}
