// Package bench compares Stockroom with peer tools on the same work, side by side in one
// run. It is its own module so that peers (Colly) never enter the service's dependencies.
//
//	make bench        # runs these too, against the local databases
//
// Each benchmark runs its whole job once per iteration; run them with -benchtime 1x.
package bench
