// Catalog: vendors, a vendor's collections and listings, and a product's page.
import { useState } from 'preact/hooks';
import { get, post, query } from '../api.js';
import { dateTime, money, number } from '../format.js';
import { ErrorBox, Loading, Empty, Price, StatusBadge, useLoad } from '../ui.jsx';
import { rememberListing, listingOf } from '../listings.js';

const gridPageSize = 24;

function Pager({ pagination, href }) {
  if (!pagination || pagination.total_pages <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {pagination.has_prev ? <a href={href(pagination.page - 1)} rel="prev">← Previous</a> : <span />}
      <span>Page {pagination.page} of {pagination.total_pages}</span>
      {pagination.has_next ? <a href={href(pagination.page + 1)} rel="next">Next →</a> : <span />}
    </nav>
  );
}

export function Vendors({ page }) {
  const vendors = useLoad((signal) => get(`/v2/vendors${query({ page, page_size: 50 })}`, { signal }), [page]);
  return (
    <>
      <h1>Catalog</h1>
      {vendors.loading && <Loading what="Loading vendors" />}
      <ErrorBox error={vendors.error} retry={vendors.reload} />
      {vendors.data && !vendors.loading && (vendors.data.data.length === 0
        ? <Empty>No vendors yet. <a href="#/executions">Crawl a store</a> to fill the catalog.</Empty>
        : (
          <div class="table-wrap">
            <table data-testid="vendors">
              <thead><tr><th scope="col">Vendor</th><th scope="col" class="num">Listings</th><th scope="col" class="num">Collections</th><th scope="col">Updated</th></tr></thead>
              <tbody>
                {vendors.data.data.map((v) => (
                  <tr>
                    <th scope="row"><a href={`#/catalog/${encodeURIComponent(v.vendor)}`}>{v.vendor}</a></th>
                    <td class="num">{number(v.listings_count)}</td>
                    <td class="num">{number(v.collections_count)}</td>
                    <td><time datetime={v.last_updated_by_service}>{dateTime(v.last_updated_by_service)}</time></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      <Pager pagination={vendors.data?.pagination} href={(p) => `#/catalog${query({ page: p })}`} />
    </>
  );
}

export function Vendor({ vendor, collection, page }) {
  const collections = useLoad((signal) => get(`/v2/collections${query({ vendor, page_size: 100 })}`, { signal }), [vendor]);
  const listings = useLoad((signal) => get(`/v2/listings${query({ vendor, collection_url: collection, page, page_size: gridPageSize })}`, { signal }), [vendor, collection, page]);
  const base = `#/catalog/${encodeURIComponent(vendor)}`;
  return (
    <>
      <p><a href="#/catalog">← Vendors</a></p>
      <h1>{vendor}</h1>
      <div class="split">
        <section aria-labelledby="collections-h" class="side">
          <h2 id="collections-h">Collections</h2>
          {collections.loading && <Loading />}
          <ErrorBox error={collections.error} retry={collections.reload} />
          {collections.data && (collections.data.data.length === 0 ? <Empty>No collections.</Empty> : (
            <ul class="collections" data-testid="collections">
              <li><a href={base} aria-current={!collection ? 'page' : undefined}>All listings</a></li>
              {collections.data.data.map((c) => (
                <li>
                  <a href={`${base}${query({ collection: c.url })}`} aria-current={collection === c.url ? 'page' : undefined}>{collectionName(c.url)}</a>
                  <span class="muted"> {number(c.products_total)}</span>
                </li>
              ))}
            </ul>
          ))}
        </section>
        <section aria-labelledby="listings-h" class="grow">
          <h2 id="listings-h">{collection ? collectionName(collection) : 'All listings'}</h2>
          {listings.loading && <Loading what="Loading listings" />}
          <ErrorBox error={listings.error} retry={listings.reload} />
          {listings.data && !listings.loading && (listings.data.data.length === 0 ? <Empty>No listings here.</Empty> : (
            <ul class="grid" data-testid="listings">
              {listings.data.data.map((l) => (
                <li class="tile">
                  <a href={`${base}/product${query({ url: l.url })}`} onClick={() => rememberListing(l)}>
                    {l.images?.[0] ? <img src={l.images[0].url} alt="" loading="lazy" width="240" height="240" /> : <div class="noimage" aria-hidden="true">No image</div>}
                    <span class="name">{l.name ?? l.url}</span>
                  </a>
                  <Price price={l.price} />
                </li>
              ))}
            </ul>
          ))}
          <Pager pagination={listings.data?.pagination} href={(p) => `${base}${query({ collection, page: p })}`} />
        </section>
      </div>
    </>
  );
}

// collectionName is a collection URL's last path segment, readable.
function collectionName(url) {
  try {
    const segment = new URL(url).pathname.split('/').filter(Boolean).pop() ?? url;
    return decodeURIComponent(segment).replace(/[-_]+/g, ' ');
  } catch {
    return url;
  }
}

export function Product({ vendor, url }) {
  const listing = listingOf(url);
  const [extraction, setExtraction] = useState({ state: 'idle' });
  const extractDetail = async () => {
    setExtraction({ state: 'running' });
    try {
      const started = await post('/v2/extract', { urls: [url], enable_enrichment: true });
      for (;;) {
        const e = await get(`/v2/extract/${encodeURIComponent(started.execution_id)}`);
        if (e.status === 'completed' || e.status === 'failed') {
          const item = e.data?.[0];
          if (e.status === 'failed' || !item?.product) {
            setExtraction({ state: 'failed', message: e.error ?? item?.message ?? 'The page gave no product.', outcome: item?.outcome });
          } else {
            setExtraction({ state: 'done', product: item.product });
          }
          return;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    } catch (err) {
      setExtraction({ state: 'error', error: err });
    }
  };
  const product = extraction.product;
  const images = product?.images?.length ? product.images : listing?.images ?? [];
  const price = product?.price ?? listing?.price;
  return (
    <>
      <p><a href={`#/catalog/${encodeURIComponent(vendor)}`}>← {vendor}</a></p>
      <h1>{product?.title ?? listing?.name ?? 'Product'}</h1>
      <div class="product">
        <div class="gallery">
          {images.length === 0 ? <div class="noimage">No image</div> : images.map((img, i) => (
            <img src={img.url} alt={img.alt_text || (i === 0 ? (product?.title ?? listing?.name ?? '') : '')} width="320" height="320" data-testid={i === 0 ? 'product-image' : undefined} />
          ))}
        </div>
        <div class="facts-col">
          <p class="big" data-testid="product-price"><Price price={price} /></p>
          {product && <p><StatusBadge status={product.is_available ? 'available' : 'unavailable'} /></p>}
          <p><a href={url} rel="noopener noreferrer" target="_blank">Open in the store</a></p>
          {listing && <p class="muted">First seen {dateTime(listing.first_seen_by_service)}, updated {dateTime(listing.last_updated_by_service)}</p>}
          {!listing && !product && <p class="muted">Open products from their collection to see the listing, or extract the page.</p>}
          {extraction.state !== 'done' && (
            <p>
              <button type="button" onClick={extractDetail} disabled={extraction.state === 'running'}>
                {extraction.state === 'running' ? 'Extracting…' : 'Extract full detail (5 credits)'}
              </button>
            </p>
          )}
          {extraction.state === 'running' && <Loading what="Extracting the product page" />}
          {extraction.state === 'failed' && <div class="error" role="alert">{extraction.outcome && <strong>{extraction.outcome}: </strong>}{extraction.message}</div>}
          {extraction.state === 'error' && <ErrorBox error={extraction.error} />}
        </div>
      </div>
      {product && <ProductDetail product={product} />}
    </>
  );
}

function ProductDetail({ product }) {
  const attributes = product.attributes ?? {};
  const sources = Object.entries(product.field_sources ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <>
      {product.description && <><h2>Description</h2><p>{product.description}</p></>}
      <dl class="facts">
        <dt>Brand</dt><dd>{product.brand ?? '—'}</dd>
        <dt>Type</dt><dd>{product.product_type ?? '—'}</dd>
        <dt>Category</dt><dd>{product.engine_product_category_path ?? '—'}</dd>
        <dt>Platform</dt><dd>{product.platform ?? '—'}</dd>
        <dt>Price range</dt><dd>{product.min_price === product.max_price ? money(product.min_price, product.price?.currency) : `${money(product.min_price, product.price?.currency)} – ${money(product.max_price, product.price?.currency)}`}</dd>
      </dl>
      {product.options.length > 0 && (
        <>
          <h2>Options</h2>
          <dl class="facts">{product.options.map((o) => <><dt>{o.name}</dt><dd>{o.values.join(', ')}</dd></>)}</dl>
        </>
      )}
      {product.variants.length > 0 && (
        <>
          <h2>Variants</h2>
          <div class="table-wrap">
            <table data-testid="variants">
              <thead><tr><th scope="col">Variant</th><th scope="col">SKU</th><th scope="col">Price</th><th scope="col">Availability</th></tr></thead>
              <tbody>
                {product.variants.map((v) => (
                  <tr><th scope="row">{v.title ?? Object.values(v.options ?? {}).join(' / ')}</th><td>{v.sku ?? '—'}</td><td><Price price={v.price} /></td><td>{v.is_available ? 'In stock' : 'Out of stock'}</td></tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {product.attributes && (
        <>
          <h2>Enrichment</h2>
          <dl class="facts" data-testid="enrichment">
            {Object.entries(attributes).filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)).map(([k, v]) => (
              <><dt>{k.replace(/_/g, ' ')}</dt><dd>{typeof v === 'object' ? (Array.isArray(v) ? v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : x)).join(', ') : Object.values(v).filter(Boolean).join(' / ')) : String(v)}</dd></>
            ))}
          </dl>
        </>
      )}
      <h2>Where each field came from</h2>
      {sources.length === 0 ? <Empty>The extraction did not say.</Empty> : (
        <div class="table-wrap">
          <table data-testid="field-sources">
            <thead><tr><th scope="col">Field</th><th scope="col">Source</th></tr></thead>
            <tbody>{sources.map(([field, source]) => <tr><th scope="row"><code>{field}</code></th><td>{source}</td></tr>)}</tbody>
          </table>
        </div>
      )}
    </>
  );
}
