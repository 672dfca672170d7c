/**
 * @module The shape of the files beside this one: a language's zones, each with the names its speakers give the
 * zone's city where the IANA name does not (`["Europe/Vienna", "Wien"]`), from CLDR (scripts/cldr-places.mjs).
 */
export type ExemplarCities = readonly (readonly [zone: string, ...names: string[]])[];
