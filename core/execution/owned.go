package execution

import (
	"context"
	"errors"
	"fmt"

	"github.com/stockroom/stockroom/core/failure"
)

// Owned returns execution id of the given kind. organizationID, when not empty, must own
// it or have joined it (a crawl another organization was running when it asked for one
// of the same vendor). An unknown id, another organization's, or one of another kind is
// the same failure NotFound, so that ids of others are not revealed; noun names the
// execution in the message ("crawl", "execution").
func Owned(ctx context.Context, store Store, organizationID, id string, kind Kind, noun string) (Execution, error) {
	e, err := store.Get(ctx, id, organizationID)
	if errors.Is(err, ErrNotFound) || (err == nil && e.Kind != kind) {
		return Execution{}, failure.NotFoundf("%s %s not found", noun, id)
	}
	return e, err
}

// CancelOwned cancels a pending or running execution found as Owned finds it; one that has
// already ended is failure NotRunning. What it charged stays charged and its work is kept.
func CancelOwned(ctx context.Context, store Store, organizationID, id string, kind Kind, noun string) (Execution, error) {
	e, err := Owned(ctx, store, organizationID, id, kind, noun)
	if err != nil {
		return Execution{}, err
	}
	if organizationID != "" && e.OrganizationID != organizationID {
		return Execution{}, &failure.Error{Kind: failure.Forbidden,
			Message: fmt.Sprintf("%s %s was started by another organization, which alone may cancel it", noun, id)}
	}
	e, err = store.Cancel(ctx, id, organizationID)
	switch {
	case errors.Is(err, ErrNotFound):
		return e, failure.NotFoundf("%s %s not found", noun, id)
	case errors.Is(err, ErrEnded):
		return e, &failure.Error{Kind: failure.NotRunning, Message: fmt.Sprintf("%s %s has already ended", noun, id)}
	}
	return e, err
}
