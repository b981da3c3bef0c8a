"""The terrapipe Processing provider: an algorithm per program found, made
when QGIS loads the provider from the program's --describe."""
import os

from qgis.core import QgsProcessingModelAlgorithm, QgsProcessingProvider

from . import runner
from .algorithm import TerrapipeAlgorithm, TerrapipeChain

try:	# Processing's settings: absent where the processing plugin is not
    from processing.core.ProcessingConfig import ProcessingConfig, Setting
except ImportError:
    ProcessingConfig = Setting = None

FOLDER = "TERRAPIPE_FOLDER"


class TerrapipeProvider(QgsProcessingProvider):
    def id(self):
        return "terrapipe"

    def name(self):
        return "terrapipe"

    def longName(self):
        return "terrapipe heightfield programs"

    def icon(self):
        return QgsProcessingProvider.icon(self)

    def load(self):
        if ProcessingConfig is not None:
            ProcessingConfig.settingIcons[self.name()] = self.icon()
            ProcessingConfig.addSetting(Setting(
                self.name(), FOLDER, "Folder of the terrapipe programs "
                "(empty: search PATH)", "", valuetype=Setting.FOLDER))
            ProcessingConfig.readSettings()
        self.refreshAlgorithms()
        return True

    def unload(self):
        if ProcessingConfig is not None:
            ProcessingConfig.removeSetting(FOLDER)

    def loadAlgorithms(self):
        if ProcessingConfig is not None:
            runner.set_folder(ProcessingConfig.getSetting(FOLDER))
        for name in runner.programs():
            d = runner.describe(name)
            if d is not None:
                self.addAlgorithm(TerrapipeAlgorithm(d))
        self.addAlgorithm(TerrapipeChain())
        self.load_models()

    def load_models(self):
        """The models shipped in models/ (terrapipe:hydrology and
        terrapipe:world), which run the algorithms above."""
        here = os.path.join(os.path.dirname(__file__), "models")
        for f in sorted(os.listdir(here)) if os.path.isdir(here) else []:
            m = QgsProcessingModelAlgorithm()
            if f.endswith(".model3") and m.fromFile(os.path.join(here, f)):
                self.addAlgorithm(m)

    def supportedOutputRasterLayerExtensions(self):
        return ["tif"]
