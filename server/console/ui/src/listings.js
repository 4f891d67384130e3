// Listings seen in the grid, by URL, so that a product page opened from it shows the
// listing at once. Held in memory only, and emptied on sign-out.
const seen = new Map();

export const rememberListing = (listing) => seen.set(listing.url, listing);
export const listingOf = (url) => seen.get(url);
export const forgetListings = () => seen.clear();
