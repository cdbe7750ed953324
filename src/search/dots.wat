;; The resident vector scan (dots.ts): one query against every stored row, in WebAssembly SIMD.
;; Rows are float32, the query float64 (each of its float32 values widened), and every product
;; and sum is float64, in four running sums, d mod 4 = 0, 1, 2, 3, added as (s0 + s1) + (s2 + s3)
;; at the end: dots.ts's JavaScript does the same additions in the same order, so both give the
;; same sums bit for bit. Compiled by scripts/build-wasm.mjs into dots-wasm.ts.
(module
  (memory (export "memory") 1)
  ;; dots(q, v, rows, dims, out): out[r] = row r of v · q, for r < rows; dims a multiple of 4.
  ;; q: dims float64s; v: rows × dims float32s; out: rows float64s (byte offsets, 16-aligned).
  (func (export "dots") (param $q i32) (param $v i32) (param $rows i32) (param $dims i32) (param $out i32)
    (local $r i32) (local $d i32) (local $bytes i32) (local $row i32) (local $qd i32)
    (local $s01 v128) (local $s23 v128) (local $x v128)
    (local.set $bytes (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $row (local.get $v))
    (block $done
      (loop $each_row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $s01 (v128.const i32x4 0 0 0 0))
        (local.set $s23 (v128.const i32x4 0 0 0 0))
        (local.set $d (i32.const 0))
        (local.set $qd (local.get $q))
        (block $row_done
          (loop $each_four
            (br_if $row_done (i32.ge_u (local.get $d) (local.get $bytes)))
            ;; four float32s of the row: the low two widen against q[d], q[d+1], the high two
            ;; against q[d+2], q[d+3]
            (local.set $x (v128.load (i32.add (local.get $row) (local.get $d))))
            (local.set $s01 (f64x2.add (local.get $s01)
              (f64x2.mul (f64x2.promote_low_f32x4 (local.get $x)) (v128.load (local.get $qd)))))
            (local.set $s23 (f64x2.add (local.get $s23)
              (f64x2.mul
                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $x) (local.get $x)))
                (v128.load offset=16 (local.get $qd)))))
            (local.set $d (i32.add (local.get $d) (i32.const 16)))
            (local.set $qd (i32.add (local.get $qd) (i32.const 32)))
            (br $each_four)))
        (f64.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 3)))
          (f64.add
            (f64.add (f64x2.extract_lane 0 (local.get $s01)) (f64x2.extract_lane 1 (local.get $s01)))
            (f64.add (f64x2.extract_lane 0 (local.get $s23)) (f64x2.extract_lane 1 (local.get $s23)))))
        (local.set $row (i32.add (local.get $row) (local.get $bytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $each_row)))))
