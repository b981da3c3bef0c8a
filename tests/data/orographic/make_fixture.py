#!/usr/bin/python3
# The reference rain of tests/check_orographic.c, made by the public
# orographic-precipitation package (github.com/fastscape-lem/
# orographic-precipitation, pure Python on numpy's FFT) itself:
#
#   PYTHONPATH=/path/to/orographic-precipitation \
#       /usr/bin/python3 tests/data/orographic/make_fixture.py
#
# (commit baf8a0c13855fdef88b4ad995fd59c6e69834e00 of the package), run
# from the repository root. It writes hill.f32 (the heights, metres)
# and rain.f32 (the package's rate, mm/h), 64 x 64 little-endian float32,
# row 0 first. A Gaussian hill 1500 m high, 12 km wide (sigma), on cells of
# 2 km, a wind from 240 degrees at 15 m/s at latitude 45; the package's
# test parameters otherwise, background 1 mm/h and precip_min 0 (so its
# P <= 0 -> precip_min is max(0, P)).
import numpy as np
from orographic_precipitation import compute_orographic_precip

n, dx = 64, 2000.0
y, x = np.mgrid[0:n, 0:n] * dx
c = (n - 1) / 2 * dx
z = (1500 * np.exp(-((x - c) ** 2 + (y - c) ** 2) / (2 * 12000.0 ** 2)))
z = z.astype('<f4')
params = {'latitude': 45, 'precip_base': 1.0, 'precip_min': 0.0,
          'wind_speed': 15, 'wind_dir': 240, 'conv_time': 1000,
          'fall_time': 1000, 'nm': 0.005, 'hw': 2500,
          'cw': 7.4e-3 * -6.5e-3 / -5.8e-3}
p = compute_orographic_precip(z.astype(float), dx, dx, **params)
z.tofile('tests/data/orographic/hill.f32')
p.astype('<f4').tofile('tests/data/orographic/rain.f32')
print('max %.6f min %.6f' % (p.max(), p.min()))
