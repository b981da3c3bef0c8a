<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
<!-- QGIS style for tflow's flow band (cells draining through each cell)
     as a GeoTIFF from tgeotiff: band 1 in blues, interpolated between
     stops a decade apart (a log ramp: 100, 1000, ... 10 million cells),
     clear below 100 cells so the hillshade under it shows, opaque from
     100,000. For flow as an area (tflow's area option, square metres) on
     30 m cells, multiply the stops by 900 (Layer Properties >
     Symbology). -->
<qgis version="3.22.0" styleCategories="Symbology">
  <pipe>
    <rasterrenderer type="singlebandpseudocolor" band="1" opacity="1" alphaBand="-1" nodataColor="" classificationMin="1" classificationMax="10000000">
      <rasterTransparency/>
      <minMaxOrigin>
        <limits>None</limits>
        <extent>WholeRaster</extent>
        <statAccuracy>Estimated</statAccuracy>
        <cumulativeCutLower>0.02</cumulativeCutLower>
        <cumulativeCutUpper>0.98</cumulativeCutUpper>
        <stdDevFactor>2</stdDevFactor>
      </minMaxOrigin>
      <rastershader>
        <colorrampshader colorRampType="INTERPOLATED" classificationMode="2" clip="0" minimumValue="1" maximumValue="10000000" labelPrecision="0">
          <item value="1" color="#ffffff" alpha="0" label="1"/>
          <item value="100" color="#c6dbef" alpha="0" label="100"/>
          <item value="300" color="#9ecae1" alpha="140" label="300"/>
          <item value="1000" color="#6baed6" alpha="200" label="1,000"/>
          <item value="10000" color="#3182bd" alpha="230" label="10,000"/>
          <item value="100000" color="#08519c" alpha="255" label="100,000"/>
          <item value="1000000" color="#08306b" alpha="255" label="1,000,000"/>
          <item value="10000000" color="#03133c" alpha="255" label="10,000,000"/>
        </colorrampshader>
      </rastershader>
    </rasterrenderer>
    <brightnesscontrast brightness="0" contrast="0"/>
    <huesaturation saturation="0" grayscaleMode="0" colorizeOn="0" colorizeRed="255" colorizeGreen="128" colorizeBlue="128" colorizeStrength="100"/>
    <rasterresampler maxOversampling="2"/>
  </pipe>
  <blendMode>0</blendMode>
</qgis>
