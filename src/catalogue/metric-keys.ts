/**
 * The public brand metric groups and their metric keys, as the service's catalogue lists them
 * (`/brand-metric-groups?include=metrics`, with each metric's key from its brandscape columns):
 * what a template can be checked against without a connection (`brandscape templates validate`).
 * The service's catalogue is the authority (a report checks its keys against it before loading);
 * this copy can only miss keys the service added since, never refuse one it has: a key not here
 * is said to be unchecked, unless it is a typo's distance from one that is. A test keeps it equal
 * to the emulator's catalogue.
 */
export const KNOWN_METRIC_GROUPS: Readonly<Record<string, readonly string[]>> = {
  pillars: ['differentiation', 'relevance', 'esteem', 'knowledge'],
  power_grid: ['brand_strength', 'brand_stature'],
  imagery: [
    'innovative', 'trustworthy', 'reliable', 'high_quality', 'good_value', 'friendly', 'fun', 'stylish', 'leader', 'unique', 'distinctive', 'dynamic', 'intelligent',
    'socially_responsible', 'authentic', 'daring', 'glamorous', 'helpful', 'kind', 'original', 'prestigious', 'progressive', 'simple', 'traditional', 'up_to_date', 'visionary',
  ],
  archetypes: [
    'archetype_hero', 'archetype_sage', 'archetype_explorer', 'archetype_outlaw', 'archetype_magician', 'archetype_lover', 'archetype_jester', 'archetype_everyman',
    'archetype_caregiver', 'archetype_ruler', 'archetype_creator', 'archetype_innocent',
  ],
  commitment: ['usage', 'preference', 'recommendation'],
  base: ['brand_base'],
  legacy: ['energy'],
};

/** Every metric key of `KNOWN_METRIC_GROUPS`. */
export const KNOWN_METRIC_KEYS: readonly string[] = Object.values(KNOWN_METRIC_GROUPS).flat();
