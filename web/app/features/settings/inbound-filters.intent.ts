/** The intent of the inbound filters form: the settings route sends it to saveInboundFilters. */
export const INBOUND_FILTERS_INTENT = 'saveInboundFilters';
