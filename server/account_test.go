package server_test

import (
	"context"
	"testing"

	"github.com/stockroom/stockroom/core/access"
)

func TestAccountShowsTheCallersOrganizationOnly(t *testing.T) {
	e := newEnv(t, envOptions{})
	_, key := e.newOrg("other")
	off := false
	if _, err := e.access.Store().UpdateOrganization(context.Background(), "other", access.OrganizationChange{AutoTopUp: &off}); err != nil {
		t.Fatal(err)
	}
	r := e.doWithHeaders("GET", "/v2/account", nil, map[string]string{"x-api-key": key})
	if r.status != 200 {
		t.Fatalf("account: %d %s", r.status, r.body)
	}
	body := r.json(t)
	if body["organization"] != "other" || body["credits"] != float64(1000) || body["auto_top_up"] != false {
		t.Errorf("account of other: %s", r.body)
	}
	if mine := e.do("GET", "/v2/account", nil).json(t); mine["organization"] == "other" {
		t.Errorf("the default key reads another organization: %v", mine)
	}
}
