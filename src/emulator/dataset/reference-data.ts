/**
 * Fixed reference tables of the emulator's dataset: real markets, regions, exchanges and GICS
 * sectors; the BAV-style sectors, categories, audiences and metric catalogue. Everything random
 * (brands, companies, values) is generated from the seed in dataset.ts; these tables are the same
 * for every seed.
 *
 * Ids follow the documented examples where there are some (United Kingdom 48 in region 4 Europe,
 * year 30 = 2022, sectors 13 Computer/Electronics, 18 Household Products, 20 Apparel &
 * Accessories, audience 1 All Adults); other ids are arbitrary but stable.
 */

export interface RegionDef {
  id: number;
  name: string;
}

/** UN geoscheme regions (§11.15). */
export const REGIONS: readonly RegionDef[] = [
  { id: 1, name: 'Africa' },
  { id: 2, name: 'Latin America and the Caribbean' },
  { id: 3, name: 'Northern America' },
  { id: 4, name: 'Europe' },
  { id: 5, name: 'Eastern Asia' },
  { id: 6, name: 'South-eastern Asia' },
  { id: 7, name: 'Southern Asia' },
  { id: 8, name: 'Western Asia' },
  { id: 9, name: 'Oceania' },
];

export interface CountryDef {
  id: number;
  name: string;
  /** Name used in study names ("UK - Adults 2020", the documented form). */
  short: string;
  native: string;
  code: string;
  alpha3: string;
  numeric: string;
  /** The capital as GeoNames names it (feature code PPLC), so the cities endpoint agrees. */
  capital: string;
  areaKm2: number;
  lat: number;
  lon: number;
  regionId: number;
  /**
   * Relative market size (1 = a mid-sized market); 0 = not a BAV market (no studies). Drives the
   * number of local brands, respondents and audiences.
   */
  weight: number;
  currency: string;
  timezone: string;
  /** Appended to a foreign brand's name where the market knows it under a local name. */
  localSuffix: string;
  /** Larger cities for company headquarters. */
  cities: readonly string[];
}

const c = (
  id: number,
  name: string,
  short: string,
  native: string,
  code: string,
  alpha3: string,
  numeric: string,
  capital: string,
  areaKm2: number,
  lat: number,
  lon: number,
  regionId: number,
  weight: number,
  currency: string,
  timezone: string,
  localSuffix: string,
  cities: readonly string[],
): CountryDef => ({ id, name, short, native, code, alpha3, numeric, capital, areaKm2, lat, lon, regionId, weight, currency, timezone, localSuffix, cities });

/** 34 BAV markets and 6 countries without studies, in id order. */
export const COUNTRIES: readonly CountryDef[] = [
  c(1, 'Argentina', 'Argentina', 'Argentina', 'AR', 'ARG', '032', 'Buenos Aires', 2780400, -34, -64, 2, 0.7, 'ARS', 'America/Argentina/Buenos_Aires', ' Argentina', ['Buenos Aires', 'Córdoba', 'Rosario']),
  c(5, 'Australia', 'Australia', 'Australia', 'AU', 'AUS', '036', 'Canberra', 7692024, -27, 133, 9, 1, 'AUD', 'Australia/Sydney', '', ['Sydney', 'Melbourne', 'Brisbane']),
  c(7, 'Austria', 'Austria', 'Österreich', 'AT', 'AUT', '040', 'Vienna', 83871, 47.33, 13.33, 4, 0, 'EUR', 'Europe/Vienna', ' Österreich', ['Vienna', 'Graz']),
  c(9, 'Belgium', 'Belgium', 'België', 'BE', 'BEL', '056', 'Brussels', 30528, 50.83, 4, 4, 0, 'EUR', 'Europe/Brussels', ' Belgique', ['Brussels', 'Antwerpen']),
  c(11, 'Brazil', 'Brazil', 'Brasil', 'BR', 'BRA', '076', 'Brasília', 8515767, -10, -55, 2, 1.2, 'BRL', 'America/Sao_Paulo', ' Brasil', ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte']),
  c(13, 'Canada', 'Canada', 'Canada', 'CA', 'CAN', '124', 'Ottawa', 9984670, 60, -95, 3, 1, 'CAD', 'America/Toronto', '', ['Toronto', 'Montréal', 'Vancouver']),
  c(15, 'Chile', 'Chile', 'Chile', 'CL', 'CHL', '152', 'Santiago', 756102, -30, -71, 2, 0.6, 'CLP', 'America/Santiago', ' Chile', ['Santiago', 'Valparaíso']),
  c(17, 'China', 'China', '中国', 'CN', 'CHN', '156', 'Beijing', 9596961, 35, 105, 5, 1.5, 'CNY', 'Asia/Shanghai', ' 中国', ['Shanghai', 'Beijing', 'Shenzhen']),
  c(19, 'Colombia', 'Colombia', 'Colombia', 'CO', 'COL', '170', 'Bogotá', 1141748, 4, -72, 2, 0.6, 'COP', 'America/Bogota', ' Colombia', ['Bogotá', 'Medellín']),
  c(21, 'Egypt', 'Egypt', 'مصر', 'EG', 'EGY', '818', 'Cairo', 1002450, 27, 30, 1, 0.6, 'EGP', 'Africa/Cairo', ' مصر', ['Cairo', 'Alexandria']),
  c(23, 'France', 'France', 'France', 'FR', 'FRA', '250', 'Paris', 643801, 46, 2, 4, 1, 'EUR', 'Europe/Paris', ' France', ['Paris', 'Lyon', 'Marseille']),
  c(25, 'Germany', 'Germany', 'Deutschland', 'DE', 'DEU', '276', 'Berlin', 357114, 51, 9, 4, 1.2, 'EUR', 'Europe/Berlin', ' Deutschland', ['Munich', 'Hamburg', 'Frankfurt am Main']),
  c(27, 'India', 'India', 'भारत', 'IN', 'IND', '356', 'New Delhi', 3287263, 20, 77, 7, 1.3, 'INR', 'Asia/Kolkata', ' India', ['Mumbai', 'Bengaluru', 'New Delhi']),
  c(29, 'Indonesia', 'Indonesia', 'Indonesia', 'ID', 'IDN', '360', 'Jakarta', 1904569, -5, 120, 6, 0.8, 'IDR', 'Asia/Jakarta', ' Indonesia', ['Jakarta', 'Surabaya']),
  c(31, 'Ireland', 'Ireland', 'Éire', 'IE', 'IRL', '372', 'Dublin', 70273, 53, -8, 4, 0, 'EUR', 'Europe/Dublin', '', ['Dublin', 'Cork']),
  c(33, 'Italy', 'Italy', 'Italia', 'IT', 'ITA', '380', 'Rome', 301340, 42.83, 12.83, 4, 1, 'EUR', 'Europe/Rome', ' Italia', ['Milan', 'Rome', 'Turin']),
  c(35, 'Japan', 'Japan', '日本', 'JP', 'JPN', '392', 'Tokyo', 377930, 36, 138, 5, 1.2, 'JPY', 'Asia/Tokyo', ' ジャパン', ['Tokyo', 'Osaka', 'Nagoya']),
  c(37, 'Kenya', 'Kenya', 'Kenya', 'KE', 'KEN', '404', 'Nairobi', 580367, 1, 38, 1, 0.5, 'KES', 'Africa/Nairobi', ' Kenya', ['Nairobi', 'Mombasa']),
  c(39, 'Mexico', 'Mexico', 'México', 'MX', 'MEX', '484', 'Mexico City', 1964375, 23, -102, 2, 0.9, 'MXN', 'America/Mexico_City', ' México', ['Mexico City', 'Monterrey', 'Guadalajara']),
  c(41, 'Netherlands', 'Netherlands', 'Nederland', 'NL', 'NLD', '528', 'Amsterdam', 41850, 52.5, 5.75, 4, 0.7, 'EUR', 'Europe/Amsterdam', ' Nederland', ['Amsterdam', 'Rotterdam', 'Eindhoven']),
  c(43, 'New Zealand', 'New Zealand', 'Aotearoa', 'NZ', 'NZL', '554', 'Wellington', 270467, -41, 174, 9, 0.5, 'NZD', 'Pacific/Auckland', '', ['Auckland', 'Wellington']),
  c(45, 'Nigeria', 'Nigeria', 'Nigeria', 'NG', 'NGA', '566', 'Abuja', 923768, 10, 8, 1, 0.6, 'NGN', 'Africa/Lagos', ' Nigeria', ['Lagos', 'Abuja']),
  c(47, 'Norway', 'Norway', 'Norge', 'NO', 'NOR', '578', 'Oslo', 323802, 62, 10, 4, 0, 'NOK', 'Europe/Oslo', ' Norge', ['Oslo', 'Bergen']),
  c(48, 'United Kingdom', 'UK', 'United Kingdom', 'GB', 'GBR', '826', 'London', 242900, 54, -2, 4, 1.2, 'GBP', 'Europe/London', '', ['London', 'Manchester', 'Edinburgh']),
  c(50, 'Philippines', 'Philippines', 'Pilipinas', 'PH', 'PHL', '608', 'Manila', 300000, 13, 122, 6, 0.6, 'PHP', 'Asia/Manila', ' Pilipinas', ['Manila', 'Cebu City']),
  c(52, 'Poland', 'Poland', 'Polska', 'PL', 'POL', '616', 'Warsaw', 312685, 52, 20, 4, 0.7, 'PLN', 'Europe/Warsaw', ' Polska', ['Warsaw', 'Kraków']),
  c(54, 'Portugal', 'Portugal', 'Portugal', 'PT', 'PRT', '620', 'Lisbon', 92090, 39.5, -8, 4, 0, 'EUR', 'Europe/Lisbon', ' Portugal', ['Lisbon', 'Porto']),
  c(56, 'Saudi Arabia', 'Saudi Arabia', 'المملكة العربية السعودية', 'SA', 'SAU', '682', 'Riyadh', 2149690, 25, 45, 8, 0.6, 'SAR', 'Asia/Riyadh', ' السعودية', ['Riyadh', 'Jeddah']),
  c(58, 'Singapore', 'Singapore', 'Singapura', 'SG', 'SGP', '702', 'Singapore', 728, 1.37, 103.8, 6, 0.5, 'SGD', 'Asia/Singapore', '', ['Singapore']),
  c(60, 'South Africa', 'South Africa', 'South Africa', 'ZA', 'ZAF', '710', 'Pretoria', 1221037, -29, 24, 1, 0.7, 'ZAR', 'Africa/Johannesburg', ' South Africa', ['Johannesburg', 'Cape Town', 'Durban']),
  c(62, 'South Korea', 'South Korea', '대한민국', 'KR', 'KOR', '410', 'Seoul', 100210, 37, 127.5, 5, 0.9, 'KRW', 'Asia/Seoul', ' 코리아', ['Seoul', 'Busan']),
  c(64, 'Spain', 'Spain', 'España', 'ES', 'ESP', '724', 'Madrid', 505992, 40, -4, 4, 0.9, 'EUR', 'Europe/Madrid', ' España', ['Madrid', 'Barcelona', 'Valencia']),
  c(66, 'Sweden', 'Sweden', 'Sverige', 'SE', 'SWE', '752', 'Stockholm', 450295, 62, 15, 4, 0.6, 'SEK', 'Europe/Stockholm', ' Sverige', ['Stockholm', 'Gothenburg']),
  c(68, 'Switzerland', 'Switzerland', 'Schweiz', 'CH', 'CHE', '756', 'Bern', 41284, 47, 8, 4, 0.5, 'CHF', 'Europe/Zurich', ' Schweiz', ['Zürich', 'Geneva', 'Basel']),
  c(70, 'Thailand', 'Thailand', 'ประเทศไทย', 'TH', 'THA', '764', 'Bangkok', 513120, 15, 100, 6, 0.6, 'THB', 'Asia/Bangkok', ' ประเทศไทย', ['Bangkok', 'Chiang Mai']),
  c(72, 'Turkey', 'Turkey', 'Türkiye', 'TR', 'TUR', '792', 'Ankara', 783562, 39, 35, 8, 0.7, 'TRY', 'Europe/Istanbul', ' Türkiye', ['Istanbul', 'Ankara', 'Izmir']),
  c(74, 'United Arab Emirates', 'UAE', 'الإمارات العربية المتحدة', 'AE', 'ARE', '784', 'Abu Dhabi', 83600, 24, 54, 8, 0.5, 'AED', 'Asia/Dubai', ' الإمارات', ['Dubai', 'Abu Dhabi']),
  c(76, 'United States', 'US', 'United States', 'US', 'USA', '840', 'Washington, D.C.', 9833520, 38, -97, 3, 2, 'USD', 'America/New_York', '', ['New York City', 'Chicago', 'San Francisco', 'Seattle', 'Atlanta']),
  c(78, 'Vietnam', 'Vietnam', 'Việt Nam', 'VN', 'VNM', '704', 'Hanoi', 331212, 16.17, 107.83, 6, 0.6, 'VND', 'Asia/Ho_Chi_Minh', ' Việt Nam', ['Ho Chi Minh City', 'Hanoi']),
  c(80, 'Peru', 'Peru', 'Perú', 'PE', 'PER', '604', 'Lima', 1285216, -10, -76, 2, 0, 'PEN', 'America/Lima', ' Perú', ['Lima', 'Arequipa']),
];

/** US dollars per unit of each currency (fixed rates: financials are generated in USD, reported locally). */
export const USD_PER: Readonly<Record<string, number>> = {
  USD: 1, EUR: 1.08, GBP: 1.27, JPY: 0.0068, CNY: 0.14, HKD: 0.128, INR: 0.012, BRL: 0.19, CAD: 0.74, AUD: 0.66,
  CHF: 1.12, KRW: 0.00075, SEK: 0.095, MXN: 0.055, ZAR: 0.054, SAR: 0.27, SGD: 0.74, THB: 0.028, TRY: 0.031,
  IDR: 0.000064, PLN: 0.25, ARS: 0.0011, CLP: 0.0011, COP: 0.00025, EGP: 0.021, KES: 0.0077, NZD: 0.61,
  NGN: 0.00065, NOK: 0.094, PHP: 0.018, AED: 0.27, VND: 0.00004, PEN: 0.27,
};

/** The first calendar year with studies, and the last. */
export const FIRST_YEAR = 2019;
export const LAST_YEAR = 2025;
/** Year system ids follow the documented example (30 = 2022). */
export const yearIdOf = (year: number) => year - 1992;

export interface SectorDef {
  id: number;
  name: string;
  /** Excluded from the Most Influential lists. */
  excluded: boolean;
  /** Share of brands in this sector (relative). */
  weight: number;
  /** GICS sector code of its companies, or null (non-profits). */
  gics: number | null;
  /** Mean shift of the brand factors (see FACTORS) for brands of this sector. */
  profile: Partial<Record<FactorName, number>>;
  /** Yearly drift of the factors for the whole sector (sector-level trends). */
  trend: Partial<Record<FactorName, number>>;
  /** Words that brand names in this sector often carry. */
  nameWords: readonly string[];
  categories: readonly string[];
}

/** Brand factors: the latent traits that drive every metric (loadings in METRICS). */
export const FACTORS = ['energy', 'relevance', 'regard', 'familiarity', 'warmth', 'sophistication', 'excitement', 'innovation'] as const;
export type FactorName = (typeof FACTORS)[number];

const s = (
  id: number,
  name: string,
  weight: number,
  gics: number | null,
  profile: SectorDef['profile'],
  trend: SectorDef['trend'],
  nameWords: readonly string[],
  categories: readonly string[],
  excluded = false,
): SectorDef => ({ id, name, excluded, weight, gics, profile, trend, nameWords, categories });

/** Sectors are stable across markets and years (§11.16); categories belong to one sector. */
export const SECTORS: readonly SectorDef[] = [
  s(1, 'Alcoholic Beverages', 1, 30, { excitement: 0.3, warmth: 0.1 }, { relevance: -0.03 }, ['Brewery', 'Spirits', 'Cellars'], ['Beer', 'Wine', 'Spirits', 'Cider']),
  s(2, 'Automotive', 1, 25, { regard: 0.3, sophistication: 0.3, innovation: 0.2 }, { innovation: 0.04 }, ['Motors', 'Auto', 'Cars'], ['Cars', 'Luxury Cars', 'Electric Vehicles', 'Motorcycles', 'Tyres']),
  s(3, 'Banking & Finance', 1.1, 40, { regard: 0.1, warmth: -0.3, excitement: -0.4 }, { innovation: 0.02 }, ['Bank', 'Financial', 'Capital', 'Pay'], ['Banks', 'Credit Cards', 'Insurance', 'Investment & Pensions', 'Payment Services']),
  s(4, 'Beauty & Personal Care', 1.1, 30, { sophistication: 0.4, warmth: 0.2 }, { warmth: 0.02 }, ['Beauty', 'Cosmetics', 'Care'], ['Skin Care', 'Hair Care', 'Cosmetics', 'Fragrances', 'Oral Care']),
  s(5, 'Energy & Utilities', 0.5, 55, { energy: -0.4, warmth: -0.3, excitement: -0.5 }, { regard: -0.02 }, ['Energy', 'Power', 'Petroleum'], ['Fuel & Petrol Stations', 'Electricity & Gas', 'Renewable Energy']),
  s(6, 'Food', 1.4, 30, { relevance: 0.3, warmth: 0.3 }, {}, ['Foods', 'Kitchen', 'Farms'], ['Snacks', 'Confectionery', 'Dairy', 'Breakfast Cereals', 'Packaged Food', 'Frozen Food']),
  s(7, 'Health & Pharma', 0.6, 35, { regard: 0.3, warmth: 0.2 }, { regard: 0.02 }, ['Pharma', 'Health', 'Labs'], ['Pharmaceuticals', 'OTC Medicine', 'Vitamins & Supplements', 'Healthcare Providers']),
  s(8, 'Home & Furniture', 0.5, 25, { warmth: 0.2, sophistication: 0.1 }, {}, ['Home', 'Living', 'Interiors'], ['Furniture', 'Home Furnishings', 'Mattresses']),
  s(9, 'Internet & Social Media', 0.8, 50, { energy: 0.5, innovation: 0.6, regard: -0.2 }, { regard: -0.05, energy: 0.02 }, ['Net', 'App', 'Online'], ['Social Media', 'Search Engines', 'Messaging', 'E-commerce Platforms', 'Streaming Video']),
  s(10, 'Media & Entertainment', 0.9, 50, { excitement: 0.4, energy: 0.2 }, { relevance: -0.02 }, ['Media', 'Studios', 'TV'], ['TV Channels', 'Newspapers & Magazines', 'Video Games', 'Music', 'Cinemas']),
  s(11, 'Non-profit & Public Services', 0.4, null, { warmth: 0.5, regard: 0.2, energy: -0.2 }, {}, ['Foundation', 'Trust'], ['Charities', 'Public Services', 'Museums'], true),
  s(12, 'Non-alcoholic Beverages', 1, 30, { excitement: 0.2, relevance: 0.2 }, { relevance: -0.02 }, ['Drinks', 'Cola', 'Juice'], ['Soft Drinks', 'Coffee & Tea', 'Bottled Water', 'Juices', 'Energy Drinks']),
  s(13, 'Computer/Electronics', 1, 45, { innovation: 0.6, energy: 0.4, regard: 0.1 }, { innovation: 0.03 }, ['Tech', 'Electronics', 'Systems'], ['Computers', 'Smartphones', 'Consumer Electronics', 'Software', 'Home Appliances']),
  s(14, 'Professional Services', 0.4, 20, { regard: 0.2, warmth: -0.2, excitement: -0.4 }, {}, ['Partners', 'Consulting', 'Advisory'], ['Consulting', 'Accounting', 'Recruitment'], true),
  s(15, 'Restaurants & Food Service', 0.9, 25, { relevance: 0.3, excitement: 0.2, sophistication: -0.2 }, {}, ['Grill', 'Café', 'Burger', 'Kitchen'], ['Fast Food', 'Coffee Shops', 'Casual Dining', 'Food Delivery']),
  s(16, 'Retail', 1.3, 25, { relevance: 0.4, sophistication: -0.1 }, { relevance: 0.01 }, ['Market', 'Stores', 'Mart'], ['Supermarkets', 'Department Stores', 'Online Retail', 'Home Improvement', 'Pharmacies']),
  s(17, 'Sports & Fitness', 0.5, 25, { energy: 0.3, excitement: 0.5 }, { excitement: 0.02 }, ['Sport', 'Fit', 'Athletic'], ['Sportswear', 'Fitness Clubs', 'Sports Equipment']),
  s(18, 'Household Products', 0.8, 30, { relevance: 0.3, excitement: -0.4, energy: -0.3 }, {}, ['Home', 'Clean', 'Care'], ['Cleaning Products', 'Laundry', 'Paper Products', 'Adhesives']),
  s(19, 'Telecommunications', 0.6, 50, { relevance: 0.3, warmth: -0.4, regard: -0.3 }, { regard: -0.02 }, ['Mobile', 'Telecom', 'Connect'], ['Mobile Networks', 'Broadband', 'Pay TV']),
  s(20, 'Apparel & Accessories', 1.2, 25, { sophistication: 0.4, excitement: 0.2 }, {}, ['Apparel', 'Wear', 'Denim'], ['Clothing', 'Footwear', 'Luxury Fashion', 'Watches & Jewellery', 'Eyewear']),
  s(21, 'Toys & Baby', 0.4, 25, { warmth: 0.5, excitement: 0.3 }, {}, ['Toys', 'Kids', 'Baby'], ['Toys', 'Baby Products']),
  s(22, 'Transportation & Logistics', 0.6, 20, { relevance: 0.2, excitement: -0.2 }, { innovation: 0.02 }, ['Express', 'Logistics', 'Rail'], ['Delivery & Courier', 'Rail', 'Ride Hailing']),
  s(23, 'Travel & Leisure', 0.9, 25, { excitement: 0.4, warmth: 0.2 }, { relevance: 0.02 }, ['Air', 'Hotels', 'Travel', 'Resorts'], ['Airlines', 'Hotels', 'Travel Agencies', 'Cruise Lines', 'Theme Parks']),
  s(24, 'Tobacco', 0, 30, { regard: -0.6, warmth: -0.5 }, {}, ['Tobacco'], ['Cigarettes']),
];

/** GICS sectors (the eleven of the standard, with their codes). */
export const GICS_SECTORS: readonly { id: number; code: string; name: string }[] = [
  { id: 1, code: '10', name: 'Energy' },
  { id: 2, code: '15', name: 'Materials' },
  { id: 3, code: '20', name: 'Industrials' },
  { id: 4, code: '25', name: 'Consumer Discretionary' },
  { id: 5, code: '30', name: 'Consumer Staples' },
  { id: 6, code: '35', name: 'Health Care' },
  { id: 7, code: '40', name: 'Financials' },
  { id: 8, code: '45', name: 'Information Technology' },
  { id: 9, code: '50', name: 'Communication Services' },
  { id: 10, code: '55', name: 'Utilities' },
  { id: 11, code: '60', name: 'Real Estate' },
];

export interface ExchangeDef {
  id: number;
  name: string;
  code: string;
  suffix: string;
  mic: string;
  currency: string;
  country: string;
}

const x = (id: number, name: string, code: string, suffix: string, mic: string, currency: string, country: string): ExchangeDef => ({ id, name, code, suffix, mic, currency, country });

export const EXCHANGES: readonly ExchangeDef[] = [
  x(1, 'New York Stock Exchange', 'NYSE', '.US', 'XNYS', 'USD', 'US'),
  x(2, 'Nasdaq', 'NASDAQ', '.US', 'XNAS', 'USD', 'US'),
  x(3, 'London Stock Exchange', 'LSE', '.L', 'XLON', 'GBP', 'GB'),
  x(4, 'Euronext Paris', 'EPA', '.PA', 'XPAR', 'EUR', 'FR'),
  x(5, 'Deutsche Börse Xetra', 'XETRA', '.DE', 'XETR', 'EUR', 'DE'),
  x(6, 'Tokyo Stock Exchange', 'TSE', '.T', 'XJPX', 'JPY', 'JP'),
  x(7, 'Shanghai Stock Exchange', 'SSE', '.SS', 'XSHG', 'CNY', 'CN'),
  x(8, 'Hong Kong Stock Exchange', 'HKEX', '.HK', 'XHKG', 'HKD', 'CN'),
  x(9, 'National Stock Exchange of India', 'NSE', '.NS', 'XNSE', 'INR', 'IN'),
  x(10, 'B3 Brasil Bolsa Balcão', 'B3', '.SA', 'BVMF', 'BRL', 'BR'),
  x(11, 'Toronto Stock Exchange', 'TSX', '.TO', 'XTSE', 'CAD', 'CA'),
  x(12, 'Australian Securities Exchange', 'ASX', '.AX', 'XASX', 'AUD', 'AU'),
  x(13, 'SIX Swiss Exchange', 'SIX', '.SW', 'XSWX', 'CHF', 'CH'),
  x(14, 'Bolsa de Madrid', 'BME', '.MC', 'BMEX', 'EUR', 'ES'),
  x(15, 'Borsa Italiana', 'MIL', '.MI', 'XMIL', 'EUR', 'IT'),
  x(16, 'Korea Exchange', 'KRX', '.KS', 'XKRX', 'KRW', 'KR'),
  x(17, 'Euronext Amsterdam', 'AMS', '.AS', 'XAMS', 'EUR', 'NL'),
  x(18, 'Nasdaq Stockholm', 'STO', '.ST', 'XSTO', 'SEK', 'SE'),
  x(19, 'Bolsa Mexicana de Valores', 'BMV', '.MX', 'XMEX', 'MXN', 'MX'),
  x(20, 'Johannesburg Stock Exchange', 'JSE', '.JO', 'XJSE', 'ZAR', 'ZA'),
  x(21, 'Saudi Exchange', 'TADAWUL', '.SR', 'XSAU', 'SAR', 'SA'),
  x(22, 'Singapore Exchange', 'SGX', '.SI', 'XSES', 'SGD', 'SG'),
  x(23, 'Stock Exchange of Thailand', 'SET', '.BK', 'XBKK', 'THB', 'TH'),
  x(24, 'Borsa Istanbul', 'BIST', '.IS', 'XIST', 'TRY', 'TR'),
  x(25, 'Indonesia Stock Exchange', 'IDX', '.JK', 'XIDX', 'IDR', 'ID'),
  x(26, 'Warsaw Stock Exchange', 'GPW', '.WA', 'XWAR', 'PLN', 'PL'),
];

export interface AudienceGroupDef {
  id: number;
  name: string;
  description: string;
}

export const AUDIENCE_GROUPS: readonly AudienceGroupDef[] = [
  { id: 1, name: 'Total', description: 'Everyone surveyed' },
  { id: 2, name: 'Gender', description: 'Cuts by gender' },
  { id: 3, name: 'Age', description: 'Cuts by age band' },
  { id: 4, name: 'Generation', description: 'Cuts by generation' },
  { id: 5, name: 'Income', description: 'Cuts by household income' },
  { id: 6, name: 'Ethnicity', description: 'Minority ethnic groups (Consumer Equality Equation)' },
  { id: 7, name: 'Lifestyle', description: 'Attitudinal and life-stage segments' },
  { id: 8, name: 'Custom', description: 'Audiences built by users' },
];

/** Where an audience appears: which studies carry data for it. */
export type AudienceUse = 'always' | 'gens' | 'income' | 'recent' | 'legacy' | 'uk-diversity' | 'us-lifestyle' | 'none';

export interface AudienceDef {
  id: number;
  name: string;
  description: string;
  groupId: number;
  /** Share of the adult population, which scales brand base sizes. */
  share: number;
  /** Position on the audience axes that brands skew along (age, gender, income): -1..1. */
  age: number;
  gender: number;
  income: number;
  use: AudienceUse;
  isActive?: boolean;
  /** Owner user of a private audience. */
  owner?: string;
  bav?: boolean;
  bc?: boolean;
  diversity?: boolean;
  ethnicMinority?: boolean;
}

export const AUDIENCES: readonly AudienceDef[] = [
  { id: 1, name: 'All Adults', description: 'Everyone surveyed (unfiltered)', groupId: 1, share: 1, age: 0, gender: 0, income: 0, use: 'always', bc: true },
  { id: 2, name: 'Female', description: 'Women aged 18+', groupId: 2, share: 0.51, age: 0, gender: 1, income: 0, use: 'always', bc: true },
  { id: 3, name: 'Male', description: 'Men aged 18+', groupId: 2, share: 0.49, age: 0, gender: -1, income: 0, use: 'always', bc: true },
  { id: 4, name: 'Age 18-34', description: 'Adults aged 18 to 34', groupId: 3, share: 0.3, age: -1, gender: 0, income: -0.2, use: 'always', bc: true },
  { id: 5, name: 'Age 35-54', description: 'Adults aged 35 to 54', groupId: 3, share: 0.34, age: 0, gender: 0, income: 0.3, use: 'always', bc: true },
  { id: 6, name: 'Age 55+', description: 'Adults aged 55 and over', groupId: 3, share: 0.36, age: 1, gender: 0, income: -0.1, use: 'always', bc: true },
  { id: 7, name: 'Gen Z', description: 'Born 1997 or later', groupId: 4, share: 0.12, age: -1.4, gender: 0, income: -0.5, use: 'gens' },
  { id: 8, name: 'Millennials', description: 'Born 1981 to 1996', groupId: 4, share: 0.26, age: -0.7, gender: 0, income: 0.1, use: 'gens' },
  { id: 9, name: 'Gen X', description: 'Born 1965 to 1980', groupId: 4, share: 0.25, age: 0.3, gender: 0, income: 0.4, use: 'gens' },
  { id: 10, name: 'Baby Boomers', description: 'Born 1946 to 1964', groupId: 4, share: 0.27, age: 1.2, gender: 0, income: 0, use: 'gens' },
  { id: 11, name: 'Low Income', description: 'Lowest third of household income', groupId: 5, share: 0.33, age: 0.1, gender: 0.1, income: -1, use: 'income', bc: true },
  { id: 12, name: 'High Income', description: 'Highest third of household income', groupId: 5, share: 0.33, age: 0.1, gender: -0.1, income: 1, use: 'income', bc: true },
  { id: 13, name: 'Influentials', description: 'Opinion leaders who shape what others buy', groupId: 7, share: 0.1, age: -0.3, gender: 0, income: 0.6, use: 'recent' },
  { id: 14, name: 'Early Adopters', description: 'First to try new products and technology', groupId: 7, share: 0.15, age: -0.8, gender: -0.2, income: 0.4, use: 'us-lifestyle' },
  { id: 15, name: 'Parents', description: 'Adults with children under 18 at home', groupId: 7, share: 0.3, age: -0.2, gender: 0.1, income: 0.1, use: 'us-lifestyle' },
  { id: 16, name: 'Black British', description: 'Respondents identifying as Black British', groupId: 6, share: 0.1, age: -0.4, gender: 0, income: -0.2, use: 'uk-diversity', diversity: true, ethnicMinority: true },
  { id: 17, name: 'British Asian', description: 'Respondents identifying as British Asian', groupId: 6, share: 0.12, age: -0.3, gender: 0, income: 0, use: 'uk-diversity', diversity: true, ethnicMinority: true },
  { id: 18, name: 'Affluent (2019 definition)', description: 'Top 15% household income, as defined until 2020', groupId: 5, share: 0.15, age: 0.3, gender: -0.1, income: 1.4, use: 'legacy', isActive: false },
  { id: 19, name: 'Sports Fans', description: 'Follow professional sport weekly (Best Countries only)', groupId: 7, share: 0.3, age: -0.2, gender: -0.5, income: 0, use: 'none', bav: false, bc: true },
  { id: 20, name: 'Urban Professionals', description: 'Custom: city-dwelling graduates in full-time work', groupId: 8, share: 0.12, age: -0.3, gender: 0, income: 0.8, use: 'none', owner: 'analyst' },
  { id: 21, name: 'Premium Shoppers', description: 'Custom: bought a premium brand in the last month', groupId: 8, share: 0.08, age: 0, gender: 0.2, income: 1, use: 'none', owner: 'someone-else' },
];

export interface MetricGroupDef {
  id: number;
  key: string;
  name: string;
  description: string;
  isPublic: boolean;
}

export const METRIC_GROUPS: readonly MetricGroupDef[] = [
  { id: 1, key: 'pillars', name: 'Pillars', description: 'The four pillars of brand equity: differentiation, relevance, esteem and knowledge', isPublic: true },
  { id: 2, key: 'power_grid', name: 'Power Grid', description: 'Brand strength (differentiation and relevance) and brand stature (esteem and knowledge)', isPublic: true },
  { id: 3, key: 'imagery', name: 'Imagery', description: 'Attributes respondents associate with the brand', isPublic: true },
  { id: 4, key: 'archetypes', name: 'Archetypes', description: 'Cultural archetypes: how the brand expresses each archetype against every brand of its study', isPublic: true },
  { id: 5, key: 'commitment', name: 'Usage & Commitment', description: 'Usage, preference and recommendation, asked within a category', isPublic: true },
  { id: 6, key: 'base', name: 'Base Sizes', description: 'Respondents behind each brand score', isPublic: true },
  { id: 7, key: 'legacy', name: 'Legacy Metrics', description: 'Metrics retired from current studies', isPublic: true },
  { id: 8, key: 'client', name: 'Client Metrics', description: 'Custom metrics of client trackers', isPublic: false },
];

/** Score types a metric has, in the column order of a row. */
export type MetricScoreTypes = readonly ('value' | 'c' | 'pct' | 'rank' | 'brandscape_index' | 'category_index')[];

export interface MetricDef {
  key: string;
  name: string;
  groupKey: string;
  description: string;
  scoreTypes: MetricScoreTypes;
  /** Loadings on FACTORS; [] for metrics that are not factor-driven (derived, base). */
  loadings: readonly (readonly [FactorName, number])[];
  /** How much of the metric is its own (unexplained by factors). */
  unique: number;
  /** Offset of the percentage's logit: imagery attributes are ticked by a minority. */
  pctOffset?: number;
  /** Differs by category (usage, preference, recommendation: §11.7). */
  byCategory?: boolean;
  /** Archetype scores are standardised within the comparison set (§14). */
  standardised?: boolean;
  /** Derived from other metrics' latents (power grid). */
  derivedFrom?: readonly string[];
  /** Last year with data (legacy metrics). */
  lastYear?: number;
  isActive?: boolean;
  isLegacy?: boolean;
  isPublic?: boolean;
  isCore?: boolean;
  /** How strongly audiences differ on it (relevance and usage split more by age than esteem). */
  audienceWeight?: number;
}

const pillarTypes: MetricScoreTypes = ['c', 'rank', 'brandscape_index', 'category_index'];
const imageryTypes: MetricScoreTypes = ['pct', 'rank'];
const constructTypes: MetricScoreTypes = ['c', 'rank'];
const commitmentTypes: MetricScoreTypes = ['pct', 'rank', 'brandscape_index', 'category_index'];

const imagery = (key: string, name: string, loadings: MetricDef['loadings'], pctOffset = -1.2): MetricDef => ({
  key,
  name,
  groupKey: 'imagery',
  description: `Share of respondents who describe the brand as ${name.toLowerCase()}`,
  scoreTypes: imageryTypes,
  loadings,
  unique: 0.5,
  pctOffset,
});

/** Archetype keys used by the archetypes tool; their brandscape columns are `archetype_<key>_c/_rank`. */
export const ARCHETYPES: readonly { key: string; name: string; loadings: MetricDef['loadings'] }[] = [
  { key: 'hero', name: 'Hero', loadings: [['regard', 0.4], ['excitement', 0.4], ['energy', 0.3]] },
  { key: 'sage', name: 'Sage', loadings: [['innovation', 0.4], ['regard', 0.5]] },
  { key: 'explorer', name: 'Explorer', loadings: [['excitement', 0.5], ['energy', 0.4]] },
  { key: 'outlaw', name: 'Outlaw', loadings: [['energy', 0.6], ['excitement', 0.4], ['warmth', -0.3]] },
  { key: 'magician', name: 'Magician', loadings: [['innovation', 0.6], ['energy', 0.3]] },
  { key: 'lover', name: 'Lover', loadings: [['sophistication', 0.6], ['warmth', 0.3]] },
  { key: 'jester', name: 'Jester', loadings: [['excitement', 0.8]] },
  { key: 'everyman', name: 'Everyman', loadings: [['relevance', 0.6], ['warmth', 0.4], ['sophistication', -0.3]] },
  { key: 'caregiver', name: 'Caregiver', loadings: [['warmth', 0.8]] },
  { key: 'ruler', name: 'Ruler', loadings: [['sophistication', 0.5], ['regard', 0.5]] },
  { key: 'creator', name: 'Creator', loadings: [['innovation', 0.5], ['energy', 0.4]] },
  { key: 'innocent', name: 'Innocent', loadings: [['warmth', 0.5], ['relevance', 0.3], ['energy', -0.3]] },
];

/** The metric catalogue, in id order (ids are positions + 1). */
export const METRICS: readonly MetricDef[] = [
  { key: 'differentiation', name: 'Differentiation', groupKey: 'pillars', description: 'The ability of the brand to stand apart from its competitors', scoreTypes: pillarTypes, loadings: [['energy', 0.8], ['innovation', 0.4]], unique: 0.35, isCore: true },
  { key: 'relevance', name: 'Relevance', groupKey: 'pillars', description: 'How appropriate the brand is to people: its personal relevance', scoreTypes: pillarTypes, loadings: [['relevance', 0.85], ['warmth', 0.2]], unique: 0.35, isCore: true, audienceWeight: 0.6 },
  { key: 'esteem', name: 'Esteem', groupKey: 'pillars', description: 'How well the brand is regarded and respected', scoreTypes: pillarTypes, loadings: [['regard', 0.8], ['warmth', 0.3]], unique: 0.35, isCore: true },
  { key: 'knowledge', name: 'Knowledge', groupKey: 'pillars', description: 'How well people understand what the brand stands for', scoreTypes: pillarTypes, loadings: [['familiarity', 0.9]], unique: 0.3, isCore: true },
  { key: 'brand_strength', name: 'Brand Strength', groupKey: 'power_grid', description: 'Differentiation and relevance together: the brand\'s future value', scoreTypes: constructTypes, loadings: [], unique: 0, derivedFrom: ['differentiation', 'relevance'], isCore: true },
  { key: 'brand_stature', name: 'Brand Stature', groupKey: 'power_grid', description: 'Esteem and knowledge together: the brand\'s current standing', scoreTypes: constructTypes, loadings: [], unique: 0, derivedFrom: ['esteem', 'knowledge'], isCore: true },
  imagery('innovative', 'Innovative', [['innovation', 0.8], ['energy', 0.3]]),
  imagery('trustworthy', 'Trustworthy', [['regard', 0.7], ['warmth', 0.3]], -0.9),
  imagery('reliable', 'Reliable', [['regard', 0.7], ['relevance', 0.3]], -0.8),
  imagery('high_quality', 'High Quality', [['regard', 0.7], ['sophistication', 0.3]], -1),
  imagery('good_value', 'Good Value', [['relevance', 0.6], ['sophistication', -0.3]], -1.1),
  imagery('friendly', 'Friendly', [['warmth', 0.8]], -1),
  imagery('fun', 'Fun', [['excitement', 0.8]], -1.4),
  imagery('stylish', 'Stylish', [['sophistication', 0.8]], -1.5),
  imagery('leader', 'Leader', [['regard', 0.5], ['familiarity', 0.4]], -1.3),
  imagery('unique', 'Unique', [['energy', 0.8]], -1.6),
  imagery('distinctive', 'Distinctive', [['energy', 0.7], ['sophistication', 0.2]], -1.4),
  imagery('dynamic', 'Dynamic', [['excitement', 0.5], ['energy', 0.4]], -1.6),
  imagery('intelligent', 'Intelligent', [['innovation', 0.5], ['regard', 0.4]], -1.5),
  imagery('socially_responsible', 'Socially Responsible', [['warmth', 0.6], ['regard', 0.3]], -1.8),
  imagery('authentic', 'Authentic', [['regard', 0.5], ['warmth', 0.4]], -1.5),
  imagery('daring', 'Daring', [['excitement', 0.6], ['energy', 0.4]], -1.9),
  imagery('glamorous', 'Glamorous', [['sophistication', 0.8], ['excitement', 0.2]], -2),
  imagery('helpful', 'Helpful', [['warmth', 0.6], ['relevance', 0.4]], -1.2),
  imagery('kind', 'Kind', [['warmth', 0.8]], -1.7),
  imagery('original', 'Original', [['energy', 0.6], ['innovation', 0.3]], -1.6),
  imagery('prestigious', 'Prestigious', [['sophistication', 0.7], ['regard', 0.3]], -1.8),
  imagery('progressive', 'Progressive', [['innovation', 0.7]], -1.8),
  imagery('simple', 'Simple', [['relevance', 0.5], ['sophistication', -0.3]], -1.5),
  imagery('traditional', 'Traditional', [['innovation', -0.6], ['regard', 0.3]], -1.3),
  imagery('up_to_date', 'Up to Date', [['innovation', 0.6], ['excitement', 0.3]], -1.2),
  imagery('visionary', 'Visionary', [['innovation', 0.7], ['energy', 0.3]], -2),
  ...ARCHETYPES.map(
    (a): MetricDef => ({
      key: `archetype_${a.key}`,
      name: `Archetype: ${a.name}`,
      groupKey: 'archetypes',
      description: `How strongly the brand expresses the ${a.name} archetype, standardised against every brand of its study`,
      scoreTypes: constructTypes,
      loadings: a.loadings,
      unique: 0.45,
      standardised: true,
    }),
  ),
  { key: 'usage', name: 'Usage', groupKey: 'commitment', description: 'Share who use the brand regularly, asked within the category', scoreTypes: commitmentTypes, loadings: [['relevance', 0.6], ['familiarity', 0.5]], unique: 0.4, pctOffset: -1.6, byCategory: true, audienceWeight: 0.7 },
  { key: 'preference', name: 'Preference', groupKey: 'commitment', description: 'Share who prefer the brand over others of the category', scoreTypes: commitmentTypes, loadings: [['relevance', 0.5], ['regard', 0.4], ['familiarity', 0.3]], unique: 0.4, pctOffset: -2.1, byCategory: true, audienceWeight: 0.6 },
  { key: 'recommendation', name: 'Recommendation', groupKey: 'commitment', description: 'Share who would recommend the brand within its category', scoreTypes: commitmentTypes, loadings: [['regard', 0.5], ['relevance', 0.3], ['warmth', 0.3]], unique: 0.4, pctOffset: -2.3, byCategory: true, audienceWeight: 0.5 },
  { key: 'brand_base', name: 'Brand Base', groupKey: 'base', description: 'Respondents who rated the brand (the base of its scores)', scoreTypes: ['value'], loadings: [], unique: 0 },
  { key: 'energy', name: 'Energy', groupKey: 'legacy', description: 'Momentum of the brand; replaced by differentiation in 2021', scoreTypes: constructTypes, loadings: [['energy', 0.6], ['excitement', 0.5]], unique: 0.4, lastYear: 2020, isActive: false, isLegacy: true },
  // A client tracker's metric: private, and not part of syndicated brandscape data (no columns).
  { key: 'client_nps', name: 'Client Net Promoter Score', groupKey: 'client', description: 'Net promoter score from a client tracker', scoreTypes: [], loadings: [], unique: 0, isPublic: false },
];

/** Syllables and words from which brand and company names are built. */
export const NAME_PARTS = {
  starts: ['Ab', 'Al', 'Am', 'Ar', 'As', 'Aur', 'Bel', 'Bor', 'Bri', 'Cal', 'Cam', 'Car', 'Cel', 'Cor', 'Cy', 'Dal', 'Del', 'Dor', 'El', 'Em', 'Ev', 'Fa', 'Fel', 'Flo', 'Gal', 'Gen', 'Hal', 'Hel', 'Ir', 'Is', 'Jan', 'Jo', 'Kal', 'Kor', 'Lan', 'Lu', 'Lum', 'Mar', 'Mer', 'Mo', 'Nar', 'No', 'Nov', 'Ol', 'Or', 'Pal', 'Per', 'Pol', 'Quin', 'Ra', 'Rey', 'Ro', 'Sal', 'Sel', 'Sol', 'Ta', 'Tel', 'Tor', 'Ul', 'Val', 'Ver', 'Vi', 'Wen', 'Xan', 'Ys', 'Za', 'Zel', 'Zo'],
  middles: ['a', 'e', 'i', 'o', 'u', 'ar', 'en', 'il', 'or', 'un', 'ae', 'io', 'an', 'el', 'ri', 'va', 'ra', 'li', 'no', 'ta'],
  ends: ['bury', 'da', 'del', 'dex', 'ell', 'ena', 'ex', 'ia', 'ica', 'ify', 'ion', 'is', 'ix', 'ly', 'mo', 'na', 'net', 'o', 'on', 'ora', 'os', 'ra', 'sa', 'ta', 'tek', 'ton', 'us', 'va', 'vo', 'x', 'za'],
  words: ['Blue', 'Bright', 'Clear', 'Crest', 'Field', 'Fresh', 'Golden', 'Green', 'Harbor', 'High', 'Key', 'Light', 'Maple', 'North', 'Oak', 'Peak', 'Pure', 'Red', 'River', 'Silver', 'Star', 'Stone', 'Summit', 'Sun', 'True', 'West', 'Wild'],
  corporate: ['Group', 'Holdings', 'Inc.', 'plc', 'AG', 'SA', 'Corporation', 'Co.', 'Ltd.', 'International'],
  firstNames: ['Alex', 'Maria', 'Chen', 'Priya', 'James', 'Sofia', 'Kenji', 'Amara', 'Lucas', 'Fatima', 'Olivia', 'Mateo', 'Hana', 'Noah', 'Leila', 'Erik', 'Ana', 'David', 'Yuki', 'Grace'],
  lastNames: ['Smith', 'García', 'Wang', 'Patel', 'Müller', 'Rossi', 'Tanaka', 'Okafor', 'Silva', 'Haddad', 'Johnson', 'Kim', 'Novak', 'Dubois', 'Andersson', 'Kowalski', 'Nguyen', 'López', 'Cohen', 'Brown'],
  streets: ['Harbour Street', 'Market Square', 'Park Avenue', 'Station Road', 'Riverside Drive', 'King Street', 'Innovation Way', 'Commerce Boulevard', 'Central Plaza', 'Hill Road'],
} as const;
