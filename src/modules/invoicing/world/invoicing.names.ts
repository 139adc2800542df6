import type { NameBook } from '../../../platform/local-names.js';

/**
 * What an invoicing tool names in its country's language (invoicing.seed.ts draws it as the Belgian
 * company's tool shows it): its products, their units and categories, its payment methods and bank
 * accounts, and the texts its history writes (bank lines, memos, payments, opportunities). `{}`
 * stands for a value filled in.
 */

/** English (as drawn), French, Dutch, German, Spanish. */
type Row = readonly [string, string, string, string, string];

const ROWS: readonly Row[] = [
  // Products, their units and categories.
  ['Consulting (hour)', 'Conseil (heure)', 'Advies (uur)', 'Beratung (Stunde)', 'Consultoría (hora)'],
  [
    'Project management (day)',
    'Gestion de projet (jour)',
    'Projectmanagement (dag)',
    'Projektmanagement (Tag)',
    'Gestión de proyectos (día)',
  ],
  [
    'On-site training (session)',
    'Formation sur site (séance)',
    'Training op locatie (sessie)',
    'Vor-Ort-Schulung (Sitzung)',
    'Formación presencial (sesión)',
  ],
  [
    'Website maintenance (month)',
    'Maintenance du site web (mois)',
    'Websiteonderhoud (maand)',
    'Website-Wartung (Monat)',
    'Mantenimiento web (mes)',
  ],
  [
    'Software licence (year)',
    'Licence logicielle (an)',
    'Softwarelicentie (jaar)',
    'Softwarelizenz (Jahr)',
    'Licencia de software (año)',
  ],
  [
    'Support plan (month)',
    "Contrat d'assistance (mois)",
    'Supportabonnement (maand)',
    'Supportvertrag (Monat)',
    'Plan de soporte (mes)',
  ],
  [
    'Laptop stand',
    'Support pour ordinateur portable',
    'Laptopstandaard',
    'Laptopständer',
    'Soporte para portátil',
  ],
  [
    'USB-C docking station',
    "Station d'accueil USB-C",
    'USB-C-dockingstation',
    'USB-C-Dockingstation',
    'Base de conexión USB-C',
  ],
  [
    'Ergonomic office chair',
    'Chaise de bureau ergonomique',
    'Ergonomische bureaustoel',
    'Ergonomischer Bürostuhl',
    'Silla de oficina ergonómica',
  ],
  [
    'Noise-cancelling headset',
    'Casque à réduction de bruit',
    'Headset met ruisonderdrukking',
    'Headset mit Geräuschunterdrückung',
    'Auriculares con cancelación de ruido',
  ],
  [
    'A4 paper (box of 5 reams)',
    'Papier A4 (carton de 5 ramettes)',
    'A4-papier (doos van 5 pakken)',
    'A4-Papier (Karton mit 5 Paketen)',
    'Papel A4 (caja de 5 paquetes)',
  ],
  ['Technical handbook', 'Manuel technique', 'Technisch handboek', 'Technisches Handbuch', 'Manual técnico'],
  ['Office plant', 'Plante de bureau', 'Kantoorplant', 'Büropflanze', 'Planta de oficina'],
  [
    'Renovation works (hour)',
    'Travaux de rénovation (heure)',
    'Renovatiewerken (uur)',
    'Renovierungsarbeiten (Stunde)',
    'Obras de reforma (hora)',
  ],
  ['hour', 'heure', 'uur', 'Stunde', 'hora'],
  ['day', 'jour', 'dag', 'Tag', 'día'],
  ['session', 'séance', 'sessie', 'Sitzung', 'sesión'],
  ['month', 'mois', 'maand', 'Monat', 'mes'],
  ['year', 'an', 'jaar', 'Jahr', 'año'],
  ['unit', 'unité', 'stuk', 'Stück', 'unidad'],
  ['box', 'carton', 'doos', 'Karton', 'caja'],
  ['Services', 'Services', 'Diensten', 'Dienstleistungen', 'Servicios'],
  ['Goods', 'Marchandises', 'Goederen', 'Waren', 'Mercancías'],
  [
    '{}, billed per {}',
    '{}, facturé par {}',
    '{}, gefactureerd per {}',
    '{}, abgerechnet pro {}',
    '{}, facturado por {}',
  ],
  ['{}, sold per {}', '{}, vendu par {}', '{}, verkocht per {}', '{}, verkauft pro {}', '{}, vendido por {}'],
  // Payment methods and bank accounts.
  ['Bank transfer', 'Virement', 'Overboeking', 'Überweisung', 'Transferencia'],
  ['Credit card', 'Carte bancaire', 'Creditcard', 'Kreditkarte', 'Tarjeta de crédito'],
  ['Cash', 'Espèces', 'Contant', 'Barzahlung', 'Efectivo'],
  ['Direct debit', 'Prélèvement', 'Automatische incasso', 'Lastschrift', 'Domiciliación bancaria'],
  ['Current account', 'Compte courant', 'Betaalrekening', 'Girokonto', 'Cuenta corriente'],
  ['Savings account', 'Compte épargne', 'Spaarrekening', 'Sparkonto', 'Cuenta de ahorro'],
  ['USD account', 'Compte en USD', 'USD-rekening', 'USD-Konto', 'Cuenta en USD'],
  // What the history writes.
  ['Bank fees', 'Frais bancaires', 'Bankkosten', 'Kontoführungsgebühren', 'Comisiones bancarias'],
  [
    'Transfer to savings account',
    'Virement vers le compte épargne',
    'Overboeking naar spaarrekening',
    'Übertrag auf das Sparkonto',
    'Traspaso a la cuenta de ahorro',
  ],
  [
    'Transfer from current account',
    'Virement depuis le compte courant',
    'Overboeking van betaalrekening',
    'Übertrag vom Girokonto',
    'Traspaso desde la cuenta corriente',
  ],
  ['Interest {}', 'Intérêts {}', 'Rente {}', 'Zinsen {}', 'Intereses {}'],
  [
    'Incoming transfer {}',
    'Virement reçu {}',
    'Inkomende overboeking {}',
    'Zahlungseingang {}',
    'Transferencia recibida {}',
  ],
  ['Payment of {}', 'Règlement {}', 'Betaling {}', 'Zahlung {}', 'Pago de {}'],
  ['Credit: {}', 'Avoir : {}', 'Creditnota: {}', 'Gutschrift: {}', 'Abono: {}'],
  [
    'Thank you for your business.',
    'Merci de votre confiance.',
    'Bedankt voor uw vertrouwen.',
    'Vielen Dank für Ihren Auftrag.',
    'Gracias por su confianza.',
  ],
  [
    'Prefers e-invoicing',
    'Préfère la facture électronique',
    'Wil liever e-facturen',
    'Bevorzugt E-Rechnungen',
    'Prefiere la factura electrónica',
  ],
  [
    'Send invoices to the finance team',
    'Envoyer les factures au service comptable',
    'Facturen naar de financiële afdeling sturen',
    'Rechnungen an die Buchhaltung senden',
    'Enviar las facturas al departamento financiero',
  ],
  ['Key account', 'Compte clé', 'Sleutelklant', 'Schlüsselkunde', 'Cliente clave'],
  [
    'Pays by direct debit',
    'Paie par prélèvement',
    'Betaalt via automatische incasso',
    'Zahlt per Lastschrift',
    'Paga por domiciliación',
  ],
  ['Sales', 'Ventes', 'Verkoop', 'Vertrieb', 'Ventas'],
  ['Operations', 'Opérations', 'Operaties', 'Betrieb', 'Operaciones'],
  [
    'Research and development',
    'Recherche et développement',
    'Onderzoek en ontwikkeling',
    'Forschung und Entwicklung',
    'Investigación y desarrollo',
  ],
  // Opportunities.
  ['Website redesign', 'Refonte du site web', 'Nieuwe website', 'Website-Relaunch', 'Rediseño web'],
  ['ERP roll-out', "Déploiement de l'ERP", 'Uitrol ERP', 'ERP-Einführung', 'Implantación del ERP'],
  [
    'Annual support contract',
    "Contrat d'assistance annuel",
    'Jaarlijks supportcontract',
    'Jährlicher Supportvertrag',
    'Contrato de soporte anual',
  ],
  [
    'Office equipment renewal',
    'Renouvellement du matériel de bureau',
    'Vervanging kantoorapparatuur',
    'Erneuerung der Büroausstattung',
    'Renovación del equipo de oficina',
  ],
  [
    'Staff training programme',
    'Programme de formation du personnel',
    'Opleidingsprogramma personeel',
    'Schulungsprogramm für Mitarbeiter',
    'Programa de formación del personal',
  ],
  [
    'Cloud migration',
    'Migration vers le cloud',
    'Migratie naar de cloud',
    'Cloud-Migration',
    'Migración a la nube',
  ],
  [
    'Data analytics dashboard',
    "Tableau de bord d'analyse",
    'Dashboard voor data-analyse',
    'Datenanalyse-Dashboard',
    'Panel de análisis de datos',
  ],
  ['Security audit', 'Audit de sécurité', 'Beveiligingsaudit', 'Sicherheitsaudit', 'Auditoría de seguridad'],
  ['Mobile application', 'Application mobile', 'Mobiele app', 'Mobile App', 'Aplicación móvil'],
  [
    'E-shop integration',
    'Intégration e-commerce',
    'Koppeling webshop',
    'Onlineshop-Anbindung',
    'Integración de la tienda online',
  ],
  [
    'Licence renewal',
    'Renouvellement de licence',
    'Verlenging licentie',
    'Lizenzverlängerung',
    'Renovación de licencia',
  ],
  [
    'Process automation',
    'Automatisation des processus',
    'Procesautomatisering',
    'Prozessautomatisierung',
    'Automatización de procesos',
  ],
  [
    'Follow up after the demo',
    'Relancer après la démo',
    'Opvolgen na de demo',
    'Nach der Demo nachfassen',
    'Hacer seguimiento tras la demo',
  ],
  ['{} for {}', '{} pour {}', '{} voor {}', '{} für {}', '{} para {}'],
  ['Sales pipeline', 'Pipeline commercial', 'Verkooppijplijn', 'Vertriebspipeline', 'Embudo de ventas'],
  ['prospect', 'prospect', 'prospect', 'Interessent', 'cliente potencial'],
];

const column = (index: 1 | 2 | 3 | 4) => Object.fromEntries(ROWS.map((row) => [row[0], row[index]]));

export const INVOICING_NAMES: NameBook = { FR: column(1), NL: column(2), DE: column(3), ES: column(4) };
