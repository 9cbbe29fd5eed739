#!/usr/bin/python3
"""The polynomial of core/codegen/LogisticExpansion.cpp's exponential.

e^t ~ 1 + t * (c1 + c2 t + ... + c6 t^5) on [-ln2/2, ln2/2] (the remainder
after rounding to a multiple of ln 2), near-minimax in relative error:
Lawson's iteratively reweighted least squares on Chebyshev points. Prints
c6 ... c1 as f32 (kExpCoefficients' order), the fit's error in exact
arithmetic and that of the expansion's evaluation in f32 (Horner's FMAs
for the bracket, then one more for 1 + t * bracket).
"""

import numpy as np

DEGREE = 6
HALF_LN2 = np.log(2) / 2


def fit():
    t = np.cos(np.linspace(0, np.pi, 4001)) * HALF_LN2
    t = t[t != 0]
    # Rows scaled by 1 / e^t: the residual is the relative error.
    scale = np.exp(-t)
    powers = np.vstack([t ** k for k in range(1, DEGREE + 1)]).T * scale[:, None]
    target = -np.expm1(-t)
    weights = np.ones_like(t)
    for _ in range(200):
        root = np.sqrt(weights)
        coefficients, *_ = np.linalg.lstsq(powers * root[:, None],
                                           target * root, rcond=None)
        error = np.abs(powers @ coefficients - target)
        weights = weights * error / np.sum(weights * error)
    return t, coefficients, error.max()


def fma32(a, b, c):
    """An f32 FMA: the product of two f32 is exact in f64."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


def f32_evaluation_error(t, coefficients):
    """Largest relative error of the f32 evaluation."""
    c = [np.float32(v) for v in coefficients]
    t = t.astype(np.float32)
    bracket = np.full_like(t, c[-1])
    for k in range(DEGREE - 2, -1, -1):
        bracket = fma32(bracket, t, c[k])
    e = fma32(t, bracket, np.float32(1.0))
    exact = np.exp(t.astype(np.float64))
    return np.max(np.abs(e.astype(np.float64) - exact) / exact)


def main():
    t, coefficients, exact_error = fit()
    print("highest first:",
          ", ".join(f"{np.float32(v):.7e}f" for v in coefficients[::-1]))
    print(f"relative error, exact arithmetic: {exact_error:.2e}")
    ulp = 2.0 ** -24
    error = f32_evaluation_error(t, coefficients)
    print(f"relative error, f32 evaluation: {error:.2e} ({error / ulp:.1f} "
          "ulp of 1)")


if __name__ == "__main__":
    main()
