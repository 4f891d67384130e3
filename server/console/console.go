// Package console serves the console: a web page at /console from which an organization
// watches its crawls, browses its catalog, tries searches and reads its usage. The page is
// a Preact app (ui/, built by `make console` into dist/, which the binary embeds); it signs
// in with an API key and talks to the public API only, so it shows exactly what a client
// can see. RATIONALE.md says why it is built this way.
package console

import (
	"embed"
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/compress"

	"github.com/stockroom/stockroom/core/failure"
)

// dist is the built app. Only dist/.keep is committed; `make console` builds the rest.
//
//go:embed all:dist
var dist embed.FS

// Prefix is the path the console is served at.
const Prefix = "/console"

// policy lets the page load only what the service serves itself, except product pictures,
// which stay on the stores that host them.
const policy = "default-src 'self'; img-src 'self' data: http: https:; style-src 'self'; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// missingBuild is the page served by a binary built without the app, instead of a 404.
const missingBuild = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Stockroom console</title>
<p>This binary was built without the console. Run <code>make console</code> (or <code>make build</code>) and build again.</p></html>`

// Register adds the console's routes to router. They need no key: the page asks for one.
func Register(router fiber.Router) {
	gzip := compress.New(compress.Config{Level: compress.LevelBestSpeed})
	router.Get(Prefix, gzip, page)
	router.Get(Prefix+"/assets/:file", gzip, asset)
}

// page serves the app's HTML. It is never cached, so that a new build's assets load at
// once; the assets themselves carry a content hash in their names and are cached for good.
func page(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentSecurityPolicy, policy)
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set("Referrer-Policy", "no-referrer")
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	html, err := dist.ReadFile("dist/index.html")
	if err != nil {
		return c.SendString(missingBuild)
	}
	return c.Send(html)
}

// asset serves one of the built files under assets/ by name.
func asset(c *fiber.Ctx) error {
	name := c.Params("file")
	if !fs.ValidPath(name) || strings.Contains(name, "/") {
		return failure.NotFoundf("no console asset %q", name)
	}
	content, err := dist.ReadFile("dist/assets/" + name)
	if err != nil {
		return failure.NotFoundf("no console asset %q", name)
	}
	mediaType := mime.TypeByExtension(path.Ext(name))
	if mediaType == "" {
		mediaType = fiber.MIMEOctetStream
	}
	c.Set(fiber.HeaderContentType, mediaType)
	c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	return c.Send(content)
}
