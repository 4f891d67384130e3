package server

import (
	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/core/usage"
)

var errUsageOff = &failure.Error{Kind: failure.Unavailable, Message: "usage reporting is not configured on this server"}

// usageReport serves /v1/usage and /v2/usage: the caller's organization only.
func (s *Server) usageReport(c *fiber.Ctx) error {
	if s.usage == nil {
		return errUsageOff
	}
	period, err := usage.ParsePeriod(c.Query("period"))
	if err != nil {
		return err
	}
	req, err := pageOf(query{c}, usagePage)
	if err != nil {
		return err
	}
	r, err := s.usage.Report(c.UserContext(), principal(c).OrganizationID, period, req)
	if err != nil {
		return err
	}
	return c.JSON(v2List(r, usageItemJSON, periodMeta{period}))
}

// legacyUsage serves /api/usage: unpaginated, period at the root.
func (s *Server) legacyUsage(c *fiber.Ctx) error {
	if s.usage == nil {
		return errUsageOff
	}
	period, err := usage.ParsePeriod(c.Query("period"))
	if err != nil {
		return err
	}
	items, err := s.usage.All(c.UserContext(), principal(c).OrganizationID, period)
	if err != nil {
		return err
	}
	return c.JSON(struct {
		Usage  []usageItem  `json:"usage"`
		Period usage.Period `json:"period"`
	}{mapItems(items, usageItemJSON), period})
}

// usageActivity serves /v2/usage/activity: each path's calls, errors, p95 latency and
// calls per day over the period, for the caller's organization only.
func (s *Server) usageActivity(c *fiber.Ctx) error {
	if s.usage == nil {
		return errUsageOff
	}
	period, err := usage.ParsePeriod(c.Query("period"))
	if err != nil {
		return err
	}
	paths, err := s.usage.Activity(c.UserContext(), principal(c).OrganizationID, period)
	if err != nil {
		return err
	}
	return c.JSON(struct {
		Data []pathActivity `json:"data"`
		Meta periodMeta     `json:"meta"`
	}{mapItems(paths, pathActivityJSON), periodMeta{period}})
}

// periodMeta is the meta of a usage answer: the period it covers.
type periodMeta struct {
	Period usage.Period `json:"period"`
}
