/** SALES HISTORY offers 2016 (the spec's first year) up to the current one. */
export const FIRST_REPORT_YEAR = 2016;

/** The years a report can be asked for, in words. */
export const reportYearsRule = (currentYear: number) => `Sales reports cover ${FIRST_REPORT_YEAR} to ${currentYear}.`;
