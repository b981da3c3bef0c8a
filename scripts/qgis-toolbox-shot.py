#!/usr/bin/python3
"""Draw the Processing toolbox's terrapipe branch offscreen into a PNG
(docs/gallery/qgis-toolbox.png).

usage: QT_QPA_PLATFORM=offscreen TERRAPIPE_BIN=bin scripts/qgis-toolbox-shot.py OUT.png"""
import os
import sys

from qgis.core import QgsApplication
from qgis.gui import QgsProcessingToolboxTreeView
from qgis.PyQt.QtCore import QSize

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "qgis"))
app = QgsApplication([], True)
app.initQgis()
from terrapipe.provider import TerrapipeProvider  # noqa: E402

registry = QgsApplication.processingRegistry()
registry.addProvider(TerrapipeProvider())
view = QgsProcessingToolboxTreeView(None, registry)
view.setHeaderHidden(True)
model = view.model()
for r in range(model.rowCount()):
    idx = model.index(r, 0)
    if "terrapipe" in (model.data(idx) or ""):
        view.expandRecursively(idx)
    else:
        view.setRowHidden(r, idx.parent(), True)
view.resize(QSize(360, 720))
view.show()
app.processEvents()
if not view.grab().save(sys.argv[1]):
    sys.exit("qgis-toolbox-shot: cannot write " + sys.argv[1])
app.exitQgis()
