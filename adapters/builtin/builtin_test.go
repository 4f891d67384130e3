package builtin

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/stockroom/stockroom/adapters/amazon"
	"github.com/stockroom/stockroom/adapters/ebay"
	"github.com/stockroom/stockroom/adapters/headless"
	"github.com/stockroom/stockroom/adapters/html"
	"github.com/stockroom/stockroom/adapters/jsonld"
	"github.com/stockroom/stockroom/adapters/magento"
	"github.com/stockroom/stockroom/adapters/sdk"
	"github.com/stockroom/stockroom/adapters/shopify"
	"github.com/stockroom/stockroom/adapters/woocommerce"
)

// The built-ins' versions say which hosts run them (README.md): each minor is the ABI minor
// of the SDK they are built with, and each manifest repeats its adapter's version.
func TestVersionsNameTheABIMinorTheModulesNeed(t *testing.T) {
	infos := map[string]sdk.Info{
		"shopify":     shopify.Adapter{}.Info(),
		"woocommerce": woocommerce.Adapter{}.Info(),
		"magento":     magento.Adapter{}.Info(),
		"amazon":      amazon.Adapter{}.Info(),
		"ebay":        ebay.Adapter{}.Info(),
		"headless":    headless.Adapter{}.Info(),
		"jsonld":      jsonld.Adapter{}.Info(),
		"html":        html.Adapter{}.Info(),
	}
	manifests, err := fs.Glob(FS, "*.json")
	if err != nil || len(manifests) != len(infos) {
		t.Fatalf("manifests %v, %v; want one for each of %d built-ins", manifests, err, len(infos))
	}
	prefix := fmt.Sprintf("%d.%d.", sdk.ABIMajor, sdk.ABIMinor)
	for _, file := range manifests {
		raw, err := FS.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var m struct{ Name, Version string }
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		info, ok := infos[m.Name]
		switch {
		case !ok:
			t.Errorf("%s names %q, no built-in", file, m.Name)
		case m.Version != info.Version:
			t.Errorf("%s says version %s, the adapter %s", file, m.Version, info.Version)
		case !strings.HasPrefix(info.Version, prefix):
			t.Errorf("%s is version %s, built for ABI %d.%d: want %sx", m.Name, info.Version, sdk.ABIMajor, sdk.ABIMinor, prefix)
		}
	}
}
