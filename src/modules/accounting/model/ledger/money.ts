/**
 * Amounts are numbers with two decimals on the wire and in the ledger; every sum and comparison is
 * made in whole cents so that 0.1 + 0.2 agrees with 0.3 and a balance is exact to the cent.
 */

export const toCents = (amount: number): number => Math.round(amount * 100);

export const fromCents = (cents: number): number => cents / 100;

/** Rounds to the cent (half away from zero). */
export const round2 = (amount: number): number => {
  const cents = Math.round(Math.abs(amount) * 100 + 1e-9);
  return (Math.sign(amount) * cents) / 100 || 0;
};

export const sumCents = (amounts: readonly number[]): number =>
  amounts.reduce((total, amount) => total + toCents(amount), 0);

export const sameToTheCent = (a: number, b: number): boolean => toCents(a) === toCents(b);

/** Amount in the folder's main currency of an amount in a currency with its exchange rate. */
export const inMainCurrency = (amount: number, rate: number): number => round2(amount * rate);
