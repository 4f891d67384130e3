package html

import "github.com/stockroom/stockroom/adapters/sdk"

// Adapter is the HTML heuristics adapter. It holds no state.
type Adapter struct{}

// Version is the adapter's version, which its manifest repeats. Its minor number is the
// minor version of the ABI the module needs (adapters/builtin/README.md).
const Version = "1.7.0"

// Info names the adapter and its version.
func (Adapter) Info() sdk.Info { return sdk.Info{Name: "html", Version: Version} }
