// tool-result-1mb's page tool and what the scripted model answers once its result is in: the tool
// scrapes a shop page's listings (about 1 MB of JSON, the shape a DOM scrape gives: an array of
// records of strings, numbers, booleans and a short array); the model's answer is a receipt of
// the request that carried the result. Runs in the page (the tool) and in Node (the model, the
// AI SDK app's route): no imports.

/** The page tool both apps register, by the same name and description. */
export const LISTINGS_TOOL = {
  name: 'read_listings',
  description: "Every listing on this shop page: title, link, price, rating, seller, tags and the card's text",
} as const;

/** How many listings the tool returns: about 1 MB of JSON (the page checks it and reports the size). */
export const LISTING_COUNT = 3_135;

/** One listing as a page scrape gives it. */
export interface Listing {
  rank: number;
  title: string;
  url: string;
  price: number;
  currency: string;
  rating: number;
  reviews: number;
  inStock: boolean;
  seller: string;
  tags: string[];
  snippet: string;
}

/** What the scripted model answers once the result is in: when the request carrying it arrived whole (the server's timeOrigin + now), and its bytes. */
export interface Receipt {
  receivedAt: number;
  bytes: number;
}

const ADJECTIVES = ['Compact', 'Wireless', 'Stainless', 'Foldable', 'Rechargeable', 'Waterproof', 'Ergonomic', 'Vintage'];
const NOUNS = ['kettle', 'headphones', 'desk lamp', 'backpack', 'blender', 'keyboard', 'tent', 'coffee grinder'];
const TAGS = ['bestseller', 'new', 'eco', 'sale', 'limited', 'refurbished', 'bundle', 'gift'];
const WORDS = 'sturdy light quiet fast warm simple clean bright soft strong durable handy small large classic modern'.split(' ');

/** The page's listings, built anew on each call as a scrape would (the same every time: a seeded generator). */
export function listings(count = LISTING_COUNT): Listing[] {
  let seed = 0x2545f491;
  const random = () => {
    // xorshift32: the same listings on both sides, every round.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
  const out: Listing[] = [];
  for (let i = 0; i < count; i++) {
    const id = Math.floor(random() * 1e9).toString(36);
    out.push({
      rank: i + 1,
      title: `${pick(ADJECTIVES)} ${pick(NOUNS)} ${id.toUpperCase().slice(0, 4)}-${i}`,
      url: `https://shop.example/item/${id}?ref=list&page=${Math.floor(i / 48) + 1}`,
      price: Math.round(random() * 50_000) / 100,
      currency: 'EUR',
      rating: Math.round(random() * 40 + 10) / 10,
      reviews: Math.floor(random() * 5_000),
      inStock: random() > 0.2,
      seller: `Seller ${Math.floor(random() * 300)}`,
      tags: [pick(TAGS), pick(TAGS)],
      snippet: Array.from({ length: 14 }, () => pick(WORDS)).join(' '),
    });
  }
  return out;
}
