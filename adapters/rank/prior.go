package rank

// Priors are the weights the hand-written rules would give, field by field: where each
// source stands, and what a block around a candidate says of it. Fit starts from them
// and its penalty pulls towards them rather than towards zero, so that a feature the
// development pages say little about keeps the weight a rule gives it, and the pages
// move the weights only as far as they show. Features left out start at 0.
var Priors = [numFields]Vector{
	Price: weights(map[Feature]float64{
		Bias: 1, FromJSONLD: 1, FromMicrodata: 0.5, FromMeta: 0.5, FromRDFa: 0.5, HasCurrency: 0.5,
		AgreeStructured: 0.5, AgreeVisible: 0.5, Alone: 1, FirstNear: 1, HeadingNear: 1,
		InOther: -2, InSlider: -1, InChrome: -1, InCart: -1, InHidden: -1, OtherKind: -1, ExtraText: -0.5,
	}),
	Title: weights(map[Feature]float64{
		Bias: 1, FromJSONLD: 1, FromHeading: 1, FromMicrodata: 0.5, FromMeta: 0.5, AgreeStructured: 0.5,
		AgreeVisible: 0.5, OverlapTitle: 0.5, CoversSlug: 0.5, HasSiteName: -1, Banner: -1, InOther: -1, InChrome: -1, InHidden: -1,
	}),
	Currency: weights(map[Feature]float64{
		Bias: 1, FromJSONLD: 1, FromMicrodata: 0.5, FromMeta: 0.5, AgreeStructured: 0.5, AgreeVisible: 0.5,
		FromImplied: -0.5, InOther: -1,
	}),
	Availability: weights(map[Feature]float64{
		Bias: 1, FromJSONLD: 1, FromMicrodata: 1, FromMeta: 1, FirstNear: 1, InOther: -2, InHidden: -1, InCart: -1,
	}),
	SKU: weights(map[Feature]float64{
		Bias: 0.5, FromJSONLD: 1, FromMicrodata: 0.5, FromMeta: 0.5, FromLabel: 0.5, StrongLabel: 0.5, InURL: 0.5,
		FirstEntity: 0.5, KindGTIN: -0.5, KindMPN: -0.5,
	}),
}

func weights(m map[Feature]float64) Vector {
	var v Vector
	for f, w := range m {
		v[f] = w
	}
	return v
}
