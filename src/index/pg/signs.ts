// A vector's signs as a bit string ('1' for a positive component): the store's coarse vector
// (schema step 3). Two unit vectors' angle is about π · Hamming distance / dimensions (SimHash),
// so the nearest by bits hold the nearest by dot product, at a fraction of the cost.
export function signBits(v: Float32Array): string {
  let s = '';
  for (let i = 0; i < v.length; i++) s += v[i]! > 0 ? '1' : '0';
  return s;
}
