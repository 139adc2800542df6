import type { LedgerProfile, ProfileCountry } from './accounting.profiles.js';
import { BE } from './countries/be.js';
import { DE } from './countries/de.js';
import { ES } from './countries/es.js';
import { FR } from './countries/fr.js';
import { NL } from './countries/nl.js';

/**
 * The country profiles of the ledgers (see accounting.profiles.ts): Belgium (a PCMN chart, as Odoo,
 * Winbooks or Octopus keep it), France (the Plan comptable général of Pennylane or Cegid Loop), the
 * Netherlands (an RGS-style chart of four digits, as Snelstart, e-Boekhouden or Moneybird keep it),
 * Germany (SKR03, the DATEV chart of Exact Online DE) and Spain (the Plan General de Contabilidad of
 * Contasol). All in EUR.
 * Each is a module of countries/, its tables as data; countries/shared.ts holds what they share.
 */

export const PROFILES: Readonly<Record<ProfileCountry, LedgerProfile>> = { BE, FR, NL, DE, ES };
