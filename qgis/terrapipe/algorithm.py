"""One Processing algorithm per terrapipe program, its parameters made from
the program's --describe: a new option needs no change here.

A program that changes a stream (io "filter") takes a raster layer, run
through timport, and writes a GeoTIFF through tgeotiff; one that makes a
stream ("source") writes a GeoTIFF from its options (and an input file
where it reads one); one that ends a stream ("sink") writes its own file:
a GeoPackage of vector layers (tvector), a PNG (tview), a report (tinfo).
"""
import os
import shlex

from qgis.core import (QgsProcessingAlgorithm,
                       QgsProcessingException, QgsProcessingOutputString,
                       QgsProcessingParameterBoolean,
                       QgsProcessingParameterEnum,
                       QgsProcessingParameterFile,
                       QgsProcessingParameterFileDestination,
                       QgsProcessingParameterFolderDestination,
                       QgsProcessingParameterNumber,
                       QgsProcessingParameterRasterDestination,
                       QgsProcessingParameterRasterLayer,
                       QgsProcessingParameterString,
                       QgsProcessingContext, QgsProcessingUtils,
                       QgsVectorLayer)

from . import runner

# Options that only change how a program talks or where it writes, which
# the algorithm decides itself, or that run a program as something other
# than one stage (tile phases, listings).
SKIPPED = {"help", "version", "quiet", "verbose", "output", "stats",
           "list-devices", "print-table", "write-geojson", "write-text",
           "tile-prepare", "tile-solve", "tile-finish", "tile-cache"}
SKIPPED_IN = {"tflow": {"suffix"}, "tinfo": {"vrt"}}

# What a sink writes (its operand), and the file filter for QGIS.
SINK_OUT = {
    "tvector": ("vector", "GeoPackage (*.gpkg);;GeoJSON (*.geojson)"),
    "tview": ("file", "PNG (*.png)"),
    "ttexture": ("file", "PNG (*.png);;GeoTIFF (*.tif)"),
    "texport": ("file", "All files (*.*)"),
    "tinfo": ("stdout", "Text (*.txt);;JSON (*.json)"),
    "ttile": ("folder", None),
    "tgeotiff": ("raster", None),
}
# A source's input file operand: its parameter name and file filter.
SOURCE_IN = {
    "tfeature": ("FILE", "Feature files (*.txt *.geojson *.json)"),
    "tmosaic": ("MANIFEST", "ttile manifest (manifest)"),
}

INPUT, OUTPUT, BANDS = "INPUT", "OUTPUT", "BANDS"
REPORT = "REPORT"


def _strict(value, kind):
    """The help's default as a value of kind, or None when it is words
    ("1, or on a geographic grid each row's metres")."""
    if value is None:
        return None
    try:
        return int(value) if kind == "integer" else float(value)
    except ValueError:
        return None


def pname(o):
    """The parameter name of option o: --dir-codes is dir_codes."""
    return o["name"].replace("-", "_")


def _number(v):
    """v as the shell would write it: 0.3, not 0.29999999999999999; 30,
    not 30.0."""
    r = repr(v)
    return r[:-2] if r.endswith(".0") else r


class TerrapipeAlgorithm(QgsProcessingAlgorithm):
    def __init__(self, d):
        super().__init__()
        self.d = d
        self.prog = d["program"]
        skip = SKIPPED | SKIPPED_IN.get(self.prog, set())
        self.opts = [o for o in d["options"] if o["name"] not in skip]

    def createInstance(self):
        return TerrapipeAlgorithm(self.d)

    def name(self):
        return self.prog

    def displayName(self):
        return self.prog

    def shortDescription(self):
        return self.d["purpose"]

    def tags(self):
        return [self.prog, "terrapipe"] + self.d.get("adds", []) + \
            [o["name"] for o in self.opts]

    def group(self):
        return {"source": "Make a terrain", "filter": "Change a terrain",
                "sink": "Write out"}[self.io()]

    def groupId(self):
        return self.io()

    def shortHelpString(self):
        lines = [self.d["purpose"], ""]
        if self.d.get("reads"):
            lines.append("Reads the bands: " + ", ".join(self.d["reads"]))
        if self.d.get("adds"):
            lines.append("Adds the bands: " + ", ".join(self.d["adds"]))
        lines += ["", "<pre>" + "\n".join(self.d["usage"]) + "</pre>",
                  "See man %s." % self.prog]
        return "\n".join(lines)

    def io(self):
        return self.d.get("io", "filter")

    def takes_stdin(self):
        """Whether a source also changes a stream (tnoise --band)."""
        return self.io() != "source" or any(
            "< in" in u for u in self.d["usage"])

    def initAlgorithm(self, config=None):
        io = self.io()
        if self.prog == "timport":
            self.addParameter(QgsProcessingParameterRasterLayer(
                INPUT, "Heightmap"))
        elif io != "source" or self.takes_stdin():
            self.addParameter(QgsProcessingParameterRasterLayer(
                INPUT, "Input terrain (a DEM, or a GeoTIFF a terrapipe "
                "algorithm wrote)", optional=io == "source"))
        if self.prog in SOURCE_IN:
            name, filt = SOURCE_IN[self.prog]
            self.addParameter(QgsProcessingParameterFile(
                name, name.capitalize(), fileFilter=filt))
        for o in self.opts:
            p = self.parameter_of(o)
            if p is not None:
                self.addParameter(p)
        self.add_outputs()

    def add_outputs(self):
        kind = SINK_OUT.get(self.prog, ("raster", None))[0] \
            if self.io() == "sink" else "raster"
        if kind == "raster":
            if self.prog != "tgeotiff":
                self.addParameter(QgsProcessingParameterString(
                    BANDS, "Bands to write, comma-separated (default: all)",
                    defaultValue="biome" if "biome" in self.d.get("adds", [])
                    else "", optional=True))
            self.addParameter(QgsProcessingParameterRasterDestination(
                OUTPUT, "Output GeoTIFF", defaultValue=None))
        elif kind == "folder":
            self.addParameter(QgsProcessingParameterFolderDestination(
                OUTPUT, "Output folder"))
        else:
            self.addParameter(QgsProcessingParameterFileDestination(
                OUTPUT, "Output file", SINK_OUT[self.prog][1]))
        if kind == "stdout":
            self.addOutput(QgsProcessingOutputString(REPORT, "Report"))

    def parameter_of(self, o):
        """A Processing parameter for option o of --describe, named as the
        option with '_' for '-' (--dir-codes: dir_codes)."""
        t, name, opt = o["type"], pname(o), True
        label = "--%s%s: %s" % (o["name"], " " + o["argument"]
                                if o.get("argument") else "", o["help"])
        if len(label) > 160:
            label = label[:157] + "..."
        if t == "flag":
            return QgsProcessingParameterBoolean(name, label, False, opt)
        if t == "choice":
            default = o.get("default")
            first = "(the program's default%s)" % (
                ": " + default if default else "")
            if o.get("optional"):
                first = "(not given)"
            return QgsProcessingParameterEnum(
                name, label, [first] + o["values"], False, 0, opt)
        if t in ("integer", "number"):
            kind = QgsProcessingParameterNumber.Integer if t == "integer" \
                else QgsProcessingParameterNumber.Double
            p = QgsProcessingParameterNumber(
                name, label, kind, _strict(o.get("default"), t), opt)
            return p
        if t == "file_in":
            return QgsProcessingParameterFile(name, label, optional=opt)
        if t == "file_out":
            return None
        return QgsProcessingParameterString(name, label, None, False, opt)

    def option_words(self, parameters, context):
        """The program's options from the parameters: only those given, and
        numbers only when they differ from the help's default, so the run
        and its HISTORY line are the shell's."""
        words = []
        for o in self.opts:
            t, name = o["type"], pname(o)
            if name not in parameters or parameters[name] is None:
                continue
            if t == "flag":
                if self.parameterAsBoolean(parameters, name, context):
                    words.append("--" + o["name"])
            elif t == "choice":
                k = self.parameterAsEnum(parameters, name, context)
                if k > 0:
                    v = o["values"][k - 1]
                    words += ["--%s=%s" % (o["name"], v)] \
                        if o.get("optional") else ["--" + o["name"], v]
            elif t in ("integer", "number"):
                raw = parameters[name]
                if raw == "" or raw is None:
                    continue
                v = self.parameterAsInt(parameters, name, context) \
                    if t == "integer" else \
                    self.parameterAsDouble(parameters, name, context)
                if v != _strict(o.get("default"), t):
                    words += ["--" + o["name"], _number(v)]
            elif t == "file_in":
                v = self.parameterAsFile(parameters, name, context)
                if v:
                    words += ["--" + o["name"], v]
            elif t != "file_out":
                v = self.parameterAsString(parameters, name, context)
                if v:
                    words += ["--" + o["name"], v]
        return words

    def input_stages(self, parameters, context):
        """The stages that make the input stream, and a file for stdin."""
        if INPUT not in parameters or parameters[INPUT] in (None, ""):
            return [], None
        layer = self.parameterAsRasterLayer(parameters, INPUT, context)
        if layer is None:
            raise QgsProcessingException("INPUT: no raster layer '%s'" %
                                         parameters[INPUT])
        return runner.stream_of(layer.source().split("|")[0])

    def processAlgorithm(self, parameters, context, feedback):
        words = [self.prog] + self.option_words(parameters, context)
        if self.prog in SOURCE_IN:
            words.append(self.parameterAsFile(
                parameters, SOURCE_IN[self.prog][0], context))
        if self.prog == "timport":
            layer = self.parameterAsRasterLayer(parameters, INPUT, context)
            stages, stdin = [words + [layer.source().split("|")[0]]], None
        else:
            stages, stdin = self.input_stages(parameters, context)
            stages = stages + [words]
        kind = SINK_OUT.get(self.prog, ("raster", None))[0] \
            if self.io() == "sink" else "raster"
        if kind == "raster" and self.prog != "tgeotiff":
            out = or_temporary(self.parameterAsOutputLayer(
                parameters, OUTPUT, context), "OUTPUT.tif")
            bands = self.parameterAsString(parameters, BANDS, context)
            write_geotiff(stages, stdin, out, bands, feedback)
            return {OUTPUT: out}
        return self.run_sink(kind, stages, stdin, parameters, context,
                             feedback)

    def run_sink(self, kind, stages, stdin, parameters, context, feedback):
        if kind == "raster":
            out = or_temporary(self.parameterAsOutputLayer(
                parameters, OUTPUT, context), "OUTPUT.tif")
        elif kind == "folder":
            out = or_temporary(self.parameterAsString(
                parameters, OUTPUT, context), "OUTPUT")
            os.makedirs(out, exist_ok=True)
        else:
            out = or_temporary(self.parameterAsFileOutput(
                parameters, OUTPUT, context), "OUTPUT" + {
                    "vector": ".gpkg", "stdout": ".txt"}.get(kind, ".png"))
        if kind != "stdout":
            stages[-1] = stages[-1] + [out]
        try:
            runner.run(stages, feedback, stdin,
                       out if kind == "stdout" else None)
        except runner.StageError as e:
            raise QgsProcessingException(str(e))
        result = {OUTPUT: out}
        if kind == "stdout":
            with open(out) as f:
                result[REPORT] = f.read()
                feedback.pushInfo(result[REPORT])
        if kind == "vector":
            load_vector_layers(out, context)
        return result


def or_temporary(path, name):
    """path, or a temporary file name where it is empty: a model's step
    whose output the run leaves out (qgis_process) gets no file name."""
    return path or QgsProcessingUtils.generateTempFilename(name)


def write_geotiff(stages, stdin, out, bands, feedback):
    """Run stages into out's stream sidecar, then tgeotiff its bands (all
    when bands is empty) into the GeoTIFF out."""
    side = out + runner.STREAM_SIDECAR
    try:
        runner.run(stages, feedback, stdin, side, (0, 90))
        if not bands:
            bands = ",".join(runner.header_bands(side))
        runner.run([["tgeotiff", "-b", bands, side, out]], feedback, None,
                   None, (90, 100))
    except runner.StageError as e:
        raise QgsProcessingException(str(e))


def load_vector_layers(path, context):
    """Each layer of the file tvector wrote, loaded when the run ends."""
    probe = QgsVectorLayer(path, "probe", "ogr")
    names = [s.split("!!::!!")[1] for s in probe.dataProvider().subLayers()] \
        if probe.isValid() else []
    for n in names or [os.path.splitext(os.path.basename(path))[0]]:
        uri = "%s|layername=%s" % (path, n) if names else path
        context.addLayerToLoadOnCompletion(
            uri, QgsProcessingContext.LayerDetails(
                n, context.project(), n))


class TerrapipeChain(QgsProcessingAlgorithm):
    """Several stages as one pipeline: PIPELINE is a shell-like line of
    terrapipe programs joined by '|', run on INPUT (or from nothing, when
    the first stage makes a terrain) into a GeoTIFF."""
    PIPELINE = "PIPELINE"
    WRITE = "WRITE"

    def createInstance(self):
        return TerrapipeChain()

    def name(self):
        return "chain"

    def displayName(self):
        return "Chain of stages (one pipeline)"

    def group(self):
        return "Change a terrain"

    def groupId(self):
        return "filter"

    def shortHelpString(self):
        return ("Runs a chain of terrapipe stages as one pipeline, the "
                "stream passing from one to the next in memory, e.g. "
                "'tfill --depth | tflow --rivers 300 | tslope'. With an "
                "input, it comes in through timport; a chain may also start "
                "with a program that makes a terrain (tnoise ...). The "
                "result goes out through tgeotiff, with the given bands and "
                "tgeotiff options (e.g. '--zrange 0,1800').")

    def initAlgorithm(self, config=None):
        self.addParameter(QgsProcessingParameterRasterLayer(
            INPUT, "Input terrain", optional=True))
        self.addParameter(QgsProcessingParameterString(
            self.PIPELINE, "Stages, joined by |", "tfill | tflow"))
        self.addParameter(QgsProcessingParameterString(
            BANDS, "Bands to write, comma-separated (default: all)", "",
            optional=True))
        self.addParameter(QgsProcessingParameterString(
            self.WRITE, "tgeotiff options", "", optional=True))
        self.addParameter(QgsProcessingParameterRasterDestination(
            OUTPUT, "Output GeoTIFF"))

    def stages(self, line):
        stages = []
        for part in line.split("|"):
            words = shlex.split(part)
            if not words:
                raise QgsProcessingException("PIPELINE: an empty stage in "
                                             "'%s'" % line)
            path = runner.program(words[0])
            if "/" in words[0] or path is None or \
                    not runner.is_terrapipe(path):
                raise QgsProcessingException(
                    "PIPELINE: '%s' is no terrapipe program" % words[0])
            stages.append(words)
        return stages

    def processAlgorithm(self, parameters, context, feedback):
        stages = self.stages(self.parameterAsString(
            parameters, self.PIPELINE, context))
        stdin = None
        if parameters.get(INPUT):
            layer = self.parameterAsRasterLayer(parameters, INPUT, context)
            first, stdin = runner.stream_of(layer.source().split("|")[0])
            stages = first + stages
        out = or_temporary(self.parameterAsOutputLayer(
            parameters, OUTPUT, context), "OUTPUT.tif")
        side = out + runner.STREAM_SIDECAR
        bands = self.parameterAsString(parameters, BANDS, context)
        extra = shlex.split(self.parameterAsString(
            parameters, self.WRITE, context) or "")
        try:
            runner.run(stages, feedback, stdin, side, (0, 90))
            bands = bands or ",".join(runner.header_bands(side))
            runner.run([["tgeotiff", "-b", bands] + extra + [side, out]],
                       feedback, None, None, (90, 100))
        except runner.StageError as e:
            raise QgsProcessingException(str(e))
        return {OUTPUT: out}
