package server

import (
	"errors"
	"log/slog"

	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/failure"
)

// Texts of the 401 bodies, fixed byte for byte by the interface.
const (
	msgKeyRequired = "API key required (x-api-key header or Authorization: Bearer)"
	msgInvalidKey  = "Invalid API key"
)

// errUnauthorized is the one error that keeps the interface's flat body.
type errUnauthorized struct{ message string }

func (e errUnauthorized) Error() string { return e.message }

// errorStatus maps each failure kind to its status and code: the only place that does.
var errorStatus = map[failure.Kind]struct {
	status int
	code   string
}{
	failure.Invalid:             {fiber.StatusBadRequest, "INVALID_REQUEST"},
	failure.Validation:          {fiber.StatusBadRequest, "VALIDATION_ERROR"},
	failure.NotFound:            {fiber.StatusNotFound, "NOT_FOUND"},
	failure.InsufficientCredits: {fiber.StatusPaymentRequired, "INSUFFICIENT_CREDITS"},
	failure.AutoTopUpRequired:   {fiber.StatusPaymentRequired, "AUTO_TOP_UP_REQUIRED"},
	failure.Forbidden:           {fiber.StatusForbidden, "FORBIDDEN"},
	failure.NotRunning:          {fiber.StatusConflict, "EXECUTION_NOT_RUNNING"},
	failure.RateLimited:         {fiber.StatusTooManyRequests, "RATE_LIMITED"},
	failure.TooLarge:            {fiber.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE"},
	failure.Unavailable:         {fiber.StatusServiceUnavailable, "SERVICE_UNAVAILABLE"},
}

// writeError answers err in the documented shape. It is called once per failed request.
func writeError(c *fiber.Ctx, err error, logger *slog.Logger) error {
	var unauthorized errUnauthorized
	if errors.As(err, &unauthorized) {
		return c.Status(fiber.StatusUnauthorized).JSON(fiber.Map{"error": unauthorized.message, "status": fiber.StatusUnauthorized})
	}
	status, code, message := fiber.StatusInternalServerError, "INTERNAL_ERROR", "internal error"
	var details map[string]any
	var fe *failure.Error
	var fiberErr *fiber.Error
	switch {
	case errors.As(err, &fe):
		s := errorStatus[fe.Kind]
		status, code, message, details = s.status, s.code, fe.Message, fe.Details
	case errors.As(err, &fiberErr):
		// Fiber's own refusals, before any handler ran: a body over the limit, a bad method.
		status, message = fiberErr.Code, fiberErr.Message
		switch fiberErr.Code {
		case fiber.StatusRequestEntityTooLarge:
			code, message = "PAYLOAD_TOO_LARGE", "request body is larger than the limit"
		case fiber.StatusNotFound:
			code = "NOT_FOUND"
		case fiber.StatusMethodNotAllowed:
			code = "METHOD_NOT_ALLOWED"
		case fiber.StatusBadRequest:
			code = "INVALID_REQUEST"
		default:
			if status >= 500 {
				code = "INTERNAL_ERROR"
			} else {
				code = "INVALID_REQUEST"
			}
		}
	}
	rid := requestID(c)
	if status >= 500 {
		logger.Error("request failed", "request_id", rid, "method", c.Method(), "path", c.Path(), "err", err)
	}
	body := fiber.Map{}
	for k, v := range details {
		body[k] = v
	}
	body["error"] = fiber.Map{"code": code, "message": message, "request_id": rid}
	return c.Status(status).JSON(body)
}
