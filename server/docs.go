package server

import (
	"github.com/gofiber/fiber/v2"

	"github.com/stockroom/stockroom/core/failure"
	"github.com/stockroom/stockroom/server/openapi"
)

// The OpenAPI document and the documentation page that renders it; neither needs a key.

// docsPolicy lets the documentation page load nothing the service does not serve itself.
// Redoc draws with inline styles and searches in a worker started from a blob; the one
// thing it asks of the internet, its footer's logo, is refused, and the footer then shows
// none.
const docsPolicy = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:"

// openAPIDocument serves the document as JSON.
func openAPIDocument(c *fiber.Ctx) error {
	doc, err := openapi.Document()
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(doc)
}

// docsPage serves the documentation page.
func docsPage(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentSecurityPolicy, docsPolicy)
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Send(openapi.Page())
}

// docsAsset serves one of the page's assets by file name.
func docsAsset(c *fiber.Ctx) error {
	name := c.Params("asset")
	content, mediaType, ok := openapi.Asset(name)
	if !ok {
		return failure.NotFoundf("no documentation asset %q", name)
	}
	c.Set(fiber.HeaderContentType, mediaType)
	return c.Send(content)
}
