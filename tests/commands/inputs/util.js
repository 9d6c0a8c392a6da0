/**
 * Utilities.
 */
const re = /\/\*.*\*\//; // a regex with /* inside

function slugify(s) {
  // lower-case and dash
  return s.toLowerCase().replace(/\s+/g, "-"); /* trailing */
}

module.exports = { slugify, re };
