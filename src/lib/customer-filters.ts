/**
 * The filters of the verticals' customer lists: `search` finds part of the name, e-mail or phone
 * (any case), `email` is the exact address (any case) and `phone` the same number, punctuation aside.
 */

export interface CustomerFilters {
  search?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
}

/** What the filters read off a customer. */
export interface CustomerContact {
  name: string;
  email: string | null;
  phone: string | null;
}

const digits = (phone: string) => phone.replace(/[^\d+]/g, '');

/** Whether a customer, by its name, e-mail and phone, passes the filters. */
export function customerFilter(filters: CustomerFilters): (contact: CustomerContact) => boolean {
  const needle = filters.search?.trim().toLowerCase();
  const email = filters.email?.trim().toLowerCase();
  const phone = filters.phone === undefined ? undefined : digits(filters.phone);
  return (contact) => {
    if (email !== undefined && contact.email?.toLowerCase() !== email) return false;
    if (phone !== undefined && (!contact.phone || digits(contact.phone) !== phone)) return false;
    if (needle) {
      const haystack = [contact.name, contact.email, contact.phone].filter(Boolean).join(' ').toLowerCase();
      if (!haystack.includes(needle)) return false;
    }
    return true;
  };
}
