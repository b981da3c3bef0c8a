<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
<!-- QGIS style for the basins layer tvector writes (of any label
     band): each label its own hue (the label times 137.508 degrees, the
     golden angle, so neighbouring labels differ), fills 45% opaque so a
     hillshade shows through, and dark grey outlines. -->
<qgis version="3.22.0" styleCategories="Symbology">
  <renderer-v2 type="singleSymbol" enableorderby="0" forceraster="0" symbollevels="0">
    <symbols>
      <symbol type="fill" name="0" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleFill" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="color" type="QString" value="120,160,200,115"/>
            <Option name="style" type="QString" value="solid"/>
            <Option name="outline_color" type="QString" value="50,50,50,255"/>
            <Option name="outline_style" type="QString" value="solid"/>
            <Option name="outline_width" type="QString" value="0.3"/>
            <Option name="outline_width_unit" type="QString" value="MM"/>
            <Option name="joinstyle" type="QString" value="miter"/>
          </Option>
          <prop k="color" v="120,160,200,115"/>
          <prop k="style" v="solid"/>
          <prop k="outline_color" v="50,50,50,255"/>
          <prop k="outline_style" v="solid"/>
          <prop k="outline_width" v="0.3"/>
          <prop k="outline_width_unit" v="MM"/>
          <prop k="joinstyle" v="miter"/>
          <data_defined_properties>
            <Option type="Map">
              <Option name="name" type="QString" value=""/>
              <Option name="properties" type="Map">
                <Option name="fillColor" type="Map">
                  <Option name="active" type="bool" value="true"/>
                  <Option name="expression" type="QString" value="color_hsva((abs(&quot;label&quot;) * 137.508) % 360, 60, 95, 115)"/>
                  <Option name="type" type="int" value="3"/>
                </Option>
              </Option>
              <Option name="type" type="QString" value="collection"/>
            </Option>
          </data_defined_properties>
        </layer>
      </symbol>
    </symbols>
  </renderer-v2>
</qgis>
