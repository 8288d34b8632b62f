/** A statement whose result has 1,000 rows: i from 1 to 1000 and its square. */
export const thousandRows =
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i, i * i AS square FROM n';
