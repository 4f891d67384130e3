package document

import (
	"testing"

	"github.com/stockroom/stockroom/core/adapter"
)

func TestMicrodataItemsInJSONLDShape(t *testing.T) {
	const page = `<html><body>
<div itemscope itemtype="http://schema.org/BreadcrumbList"><span itemprop="name">x</span></div>
<div itemscope itemtype="https://schema.org/Product">
  <h1 itemprop="name">  Drill
    Set </h1>
  <img itemprop="image" src="/a.jpg"><img itemprop="image" src="/b.jpg">
  <span itemprop="sku" content="D-1">ignored text</span>
  <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
    <meta itemprop="priceCurrency" content="EUR">
    <span itemprop="price">1.299,00 €</span>
    <link itemprop="availability" href="https://schema.org/InStock">
  </div>
  <div><span itemprop="brand">Acme</span></div>
</div>
<span itemprop="price">orphan</span>
</body></html>`
	s := NewSession([]*adapter.Document{{Body: []byte(page)}}, 0)
	v, err := s.Microdata(0)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"@type":"http://schema.org/BreadcrumbList","name":"x"},` +
		`{"@type":"https://schema.org/Product","name":"Drill Set","image":["/a.jpg","/b.jpg"],"sku":"D-1",` +
		`"offers":{"@type":"https://schema.org/Offer","priceCurrency":"EUR","price":"1.299,00 €","availability":"https://schema.org/InStock"},` +
		`"brand":"Acme"}]`
	if got := s.Raw(v); got != want {
		t.Errorf("microdata\n got %s\nwant %s", got, want)
	}
	empty := NewSession([]*adapter.Document{{Body: []byte(`<p itemprop="name">x</p>`)}}, 0)
	if v, _ := empty.Microdata(0); empty.Raw(v) != "[]" {
		t.Errorf("page without items: %s", empty.Raw(v))
	}
}
