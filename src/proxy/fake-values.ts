import { type Faker, reseed, seededFaker } from '../platform/seeding/fakers.js';

/**
 * The personal values of a recorded world replaced by generated ones of the same shape: names,
 * e-mails, phones, streets, IBANs, VAT and company numbers, websites. Each replacement depends only
 * on the kind of value, the value and the recording's salt: the same name is the same fake name in
 * every record it appears in, and a second recording of the same data gives the same world. Digits
 * are replaced by digits and letters by letters where a value has a structure (a phone's country
 * code, an IBAN's and a VAT number's country prefix are kept).
 */

type Kind =
  | 'person'
  | 'first'
  | 'last'
  | 'company'
  | 'email'
  | 'phone'
  | 'street'
  | 'digits'
  | 'iban'
  | 'url';

/** The kind of personal value a field holds, by its name; null for a field that holds none. */
function kindOf(field: string): Kind | null {
  const name = field.toLowerCase();
  if (name === 'first_name' || name === 'firstname') return 'first';
  if (name === 'last_name' || name === 'lastname') return 'last';
  if (
    name === 'company_name' ||
    name === 'name' ||
    name === 'holder_name' ||
    name === 'contact_name' ||
    name === 'counterpart_name'
  )
    return 'company';
  if (name.includes('email')) return 'email';
  if (name === 'phone' || name === 'mobile' || name.endsWith('_phone') || name === 'fax') return 'phone';
  if (name === 'street' || name === 'street_2' || name === 'address_line') return 'street';
  if (
    name === 'iban' ||
    name === 'reference' ||
    name === 'counterpart_reference' ||
    name === 'bank_account' ||
    name === 'account_number_iban'
  )
    return 'iban';
  if (
    name === 'vat' ||
    name === 'vat_number' ||
    name === 'company_number' ||
    name === 'company_id' ||
    name === 'number' ||
    name === 'box' ||
    name === 'bic_swift'
  )
    return 'digits';
  if (name === 'website' || name === 'url') return 'url';
  return null;
}

/** Each digit replaced by one drawn from the faker, each letter past `keep` characters by a letter. */
function sameShape(faker: Faker, value: string, keep: number): string {
  let out = value.slice(0, keep);
  for (const char of value.slice(keep)) {
    if (char >= '0' && char <= '9') out += String(faker.number.int({ min: 0, max: 9 }));
    else if (char >= 'A' && char <= 'Z') out += faker.string.alpha({ length: 1, casing: 'upper' });
    else if (char >= 'a' && char <= 'z') out += faker.string.alpha({ length: 1, casing: 'lower' });
    else out += char;
  }
  return out;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'x';

export class FakeValues {
  readonly #salt: string;
  readonly #faker = seededFaker('en', 0);
  readonly #cache = new Map<string, string>();

  constructor(salt = 'recorded-world') {
    this.#salt = salt;
  }

  /** The fake of a value of a field (the same value of the same kind gives the same fake), or the value. */
  of(field: string, value: string): string {
    const kind = kindOf(field);
    if (kind === null || value === '') return value;
    const key = `${kind}\u0000${value}`;
    let fake = this.#cache.get(key);
    if (fake === undefined) {
      fake = this.#make(kind, value);
      if (this.#cache.size < 100_000) this.#cache.set(key, fake);
    }
    return fake;
  }

  #make(kind: Kind, value: string): string {
    const faker = reseed(this.#faker, this.#salt, kind, value);
    switch (kind) {
      case 'first':
        return faker.person.firstName();
      case 'last':
        return faker.person.lastName();
      case 'person':
        return faker.person.fullName();
      case 'company': {
        // A person's name stays a person's, a company's a company's (with its legal form kept).
        const form = / (SA|SRL|SARL|SAS|BV|NV|BVBA|LLC|Ltd|GmbH|Inc|EI|SPRL)\.?$/i.exec(value)?.[0] ?? '';
        return `${faker.person.lastName()}${form}`;
      }
      case 'email': {
        const at = value.indexOf('@');
        const local =
          at > 0 && /^(info|contact|accounting|finance|sales|billing|admin)$/i.test(value.slice(0, at))
            ? value.slice(0, at)
            : slug(`${faker.person.firstName()}.${faker.person.lastName()}`).replace(/-/g, '.');
        return `${local}@${slug(faker.person.lastName())}.example`;
      }
      case 'phone':
        return sameShape(faker, value, value.startsWith('+') ? Math.min(3, value.length) : 1);
      case 'street':
        return faker.location.street();
      case 'iban':
        return sameShape(faker, value, /^[A-Z]{2}/.test(value) ? 2 : 0);
      case 'digits':
        return sameShape(faker, value, /^[A-Z]{2}/.test(value) ? 2 : 0);
      case 'url':
        return `https://www.${slug(faker.person.lastName())}.example`;
    }
  }

  /** A record with every personal value replaced, at any depth. */
  record<T>(value: T, field = ''): T {
    const walk = (node: unknown, name: string, depth: number): unknown => {
      if (depth > 16) return node;
      if (typeof node === 'string') return this.of(name, node);
      if (Array.isArray(node)) return node.map((item) => walk(item, name, depth + 1));
      if (node && typeof node === 'object')
        return Object.fromEntries(
          Object.entries(node).map(([key, child]) => [key, walk(child, key, depth + 1)]),
        );
      return node;
    };
    return walk(value, field, 0) as T;
  }
}
