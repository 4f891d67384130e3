package html

import (
	"github.com/stockroom/stockroom/adapters/rank"
	"github.com/stockroom/stockroom/adapters/sdk"
)

// Adapter is the HTML adapter. Model is the candidate ranker's model; nil means the
// weights the adapter ships with (rank.Default), which the scorecard replaces when it
// fits its own.
type Adapter struct {
	Model *rank.Model
}

// Version is the adapter's version, which its manifest repeats. Its minor number is the
// minor version of the ABI the module needs (adapters/builtin/README.md).
const Version = "1.7.6"

// Info names the adapter and its version.
func (Adapter) Info() sdk.Info { return sdk.Info{Name: "html", Version: Version} }
