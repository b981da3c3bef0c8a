#!/usr/bin/python3
"""Write the Processing models shipped with the QGIS provider:
qgis/terrapipe/models/terrapipe_hydrology.model3 and terrapipe_world.model3.

usage: QT_QPA_PLATFORM=offscreen TERRAPIPE_BIN=bin scripts/qgis-models.py DIR

The models are made through QGIS's own model API (so they are what the
modeler would save) from the provider's algorithms, which need the
programs (TERRAPIPE_BIN or PATH)."""
import os
import sys

from qgis.core import (QgsApplication, QgsExpression,
                       QgsProcessingModelAlgorithm,
                       QgsProcessingModelChildAlgorithm,
                       QgsProcessingModelChildParameterSource as Src,
                       QgsProcessingModelOutput, QgsProcessingModelParameter,
                       QgsProcessingParameterNumber,
                       QgsProcessingParameterRasterLayer,
                       QgsProcessingParameterString)
from qgis.PyQt.QtCore import QPointF

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "qgis"))
app = QgsApplication([], False)
app.initQgis()
from terrapipe.provider import TerrapipeProvider  # noqa: E402

provider = TerrapipeProvider()
QgsApplication.processingRegistry().addProvider(provider)


def value(alg, name, v):
    """A static value for option name of alg: an enum's index for a
    choice."""
    a = QgsApplication.processingRegistry().algorithmById("terrapipe:" + alg)
    p = a.parameterDefinition(name)
    if p is not None and p.type() == "enum":
        return Src.fromStaticValue(p.options().index(v))
    return Src.fromStaticValue(v)


def child(model, cid, alg, params, pos, outputs=None):
    """Add a step cid running terrapipe:alg; params maps a parameter to a
    static value, ("@", name) for a model input or ("<", step) for that
    step's OUTPUT; outputs maps the step's outputs to model outputs."""
    c = QgsProcessingModelChildAlgorithm("terrapipe:" + alg)
    c.setChildId(cid)
    c.setDescription(cid)
    c.setPosition(QPointF(*pos))
    for k, v in params.items():
        if isinstance(v, tuple) and v[0] == "@":
            # The input, or where a run leaves it out (qgis_process does:
            # a model passes no default of its inputs on) its default.
            d = model.parameterDefinition(v[1]).defaultValue()
            s = Src.fromExpression("coalesce(@%s, %s)" % (
                v[1], QgsExpression.quotedValue(d)))
        elif isinstance(v, tuple) and v[0] == "<":
            s = Src.fromChildOutput(v[1], "OUTPUT")
        else:
            s = value(alg, k, v)
        c.addParameterSources(k, [s])
    outs = {}
    for out, name in (outputs or {}).items():
        o = QgsProcessingModelOutput(name, name)
        o.setChildId(cid)
        o.setChildOutputName(out)
        outs[name] = o
    c.setModelOutputs(outs)
    model.addChildAlgorithm(c)


def add_input(model, p, pos):
    m = QgsProcessingModelParameter(p.name())
    m.setPosition(QPointF(*pos))
    model.addModelParameter(p, m)


def hydrology():
    m = QgsProcessingModelAlgorithm("hydrology", "Models", "models")
    m.setHelpContent({"ALG_DESC": (
        "A real DEM's drainage: tfill --depth fills the depressions (their "
        "depth kept for lakes), tflow adds flow, dir, rivers and basins, "
        "tvector writes the rivers (Strahler order) and basins as vector "
        "layers, tslope the slope and aspect of the filled heights. The "
        "shell's pipeline: timport dem.tif | tfill --depth | tflow --rivers "
        "T --basins | tvector --rivers --basins out.gpkg")})
    add_input(m, QgsProcessingParameterRasterLayer("dem", "DEM"), (80, 60))
    add_input(m, QgsProcessingParameterNumber(
        "rivers", "River threshold (cells draining through a river cell)",
        QgsProcessingParameterNumber.Double, 300, False, 1), (320, 60))
    child(m, "fill", "tfill", {"INPUT": ("@", "dem"), "depth": True},
          (120, 180), {"OUTPUT": "filled"})
    child(m, "flow", "tflow", {"INPUT": ("<", "fill"),
                               "rivers": ("@", "rivers"), "basins": True},
          (320, 280), {"OUTPUT": "flow"})
    child(m, "vectors", "tvector", {"INPUT": ("<", "flow"), "rivers": True,
                                    "basins": True, "lakes": True},
          (320, 400), {"OUTPUT": "vectors"})
    child(m, "slope", "tslope", {"INPUT": ("<", "fill"),
                                 "BANDS": "slope,aspect"},
          (100, 400), {"OUTPUT": "slope"})
    return m


def world():
    m = QgsProcessingModelAlgorithm("world", "Models", "models")
    m.setHelpContent({"ALG_DESC": (
        "The README's whole world, from noise to a biome map: tnoise | "
        "tshape --stretch 0.2,0.8 | tisland --sea 0.38 | tnoise --band "
        "uplift | tshape --band uplift | tuplift (2.5 My of uplift, "
        "incision and diffusion) | terode | tfill --depth | tflow --rivers | "
        "tnoise --band moisture | tbiome --zscale 1800, then the heights in "
        "metres (tgeotiff --zrange -684,1116: the sea at 0 m) and the biome "
        "classes with their colours. Size, cell size, droplets and river "
        "threshold are inputs: the README's are 2048x2048, 30 m, 800000 and "
        "400; the defaults here cover the same 61 km at a quarter of the "
        "resolution (512x512 cells of 120 m, seconds).")})
    add_input(m, QgsProcessingParameterString("size", "Size WxH",
                                              "512x512"), (60, 40))
    add_input(m, QgsProcessingParameterNumber(
        "cellsize", "Cell size, m", QgsProcessingParameterNumber.Double,
        120), (240, 40))
    add_input(m, QgsProcessingParameterNumber(
        "seed", "Seed", QgsProcessingParameterNumber.Integer, 7), (420, 40))
    add_input(m, QgsProcessingParameterNumber(
        "droplets", "Droplets", QgsProcessingParameterNumber.Integer,
        50000), (600, 40))
    add_input(m, QgsProcessingParameterNumber(
        "rivers", "River threshold, cells",
        QgsProcessingParameterNumber.Double, 25), (780, 40))
    steps = [
        ("noise", "tnoise", {"size": ("@", "size"),
                             "cellsize": ("@", "cellsize"),
                             "origin": "500000,4650000", "crs": "EPSG:32633",
                             "seed": ("@", "seed"), "octaves": 8,
                             "warp": 0.3, "frequency": 6.5e-5}),
        ("stretch", "tshape", {"stretch": "0.2,0.8"}),
        ("island", "tisland", {"mix": 0.6, "shape": "square-bump",
                               "warp": 0.3, "sea": 0.38}),
        ("uplift band", "tnoise", {"band": "uplift", "seed": 3,
                                   "octaves": 3, "frequency": 6.5e-5}),
        ("uplift shape", "tshape", {"band": "uplift",
                                    "stretch": "0.3,0.65"}),
        ("uplift", "tuplift", {"flow": "mfd", "zscale": 1800, "k": 1e-5,
                               "uplift": 1.3e-4, "diffusion": 0.08,
                               "dt": 50000, "steps": 50}),
        ("erode", "terode", {"droplets": ("@", "droplets")}),
        ("fill", "tfill", {"depth": True}),
        ("flow", "tflow", {"rivers": ("@", "rivers")}),
        ("moisture", "tnoise", {"band": "moisture", "seed": 8}),
        ("biome", "tbiome", {"zscale": 1800, "BANDS": "biome"}),
    ]
    prev = None
    for i, (cid, alg, params) in enumerate(steps):
        if prev is not None:
            params = dict(params, INPUT=("<", prev))
        outs = {"OUTPUT": "biome"} if cid == "biome" else None
        child(m, cid, alg, params, (120 + 220 * (i % 4), 160 + 110 * (i // 4)),
              outs)
        prev = cid
    child(m, "heights", "tgeotiff", {"INPUT": ("<", "biome"),
                                     "band": "height",
                                     "zrange": "-684,1116"},
          (560, 520), {"OUTPUT": "heights"})
    return m


for name, make in (("terrapipe_hydrology", hydrology),
                   ("terrapipe_world", world)):
    model = make()
    path = os.path.join(sys.argv[1], name + ".model3")
    if not model.toFile(path):
        sys.exit("qgis-models: cannot write " + path)
    print(path)
app.exitQgis()
