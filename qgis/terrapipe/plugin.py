"""The plugin: registers the provider with QGIS's Processing registry."""
from qgis.core import QgsApplication

from .provider import TerrapipeProvider


class TerrapipePlugin:
    def __init__(self, iface=None):
        self.iface = iface
        self.provider = None

    def initProcessing(self):
        self.provider = TerrapipeProvider()
        QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self):
        self.initProcessing()

    def unload(self):
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
