package server

import "github.com/gofiber/fiber/v2"

// account serves /v2/account: the caller's organization, its credit balance and whether
// auto top-up is on (crawls need it).
func (s *Server) account(c *fiber.Ctx) error {
	org, err := s.access.Organization(c.UserContext(), principal(c).OrganizationID)
	if err != nil {
		return err
	}
	return c.JSON(struct {
		Organization string `json:"organization"`
		Credits      int64  `json:"credits"`
		AutoTopUp    bool   `json:"auto_top_up"`
	}{org.Name, org.Credits, org.AutoTopUp})
}
