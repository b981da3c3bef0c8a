<!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
<!-- QGIS style for the rivers layer tvector writes: reaches by their
     Strahler order, light to dark blue and wider as the order grows
     (1 light blue 0.4 mm ... 5 and up navy 1.8 mm), saturated so each
     stands out of a grey hillshade, each over a thin half-clear white
     casing so the darkest read in its shadows too. -->
<qgis version="3.22.0" styleCategories="Symbology">
  <renderer-v2 type="categorizedSymbol" attr="CASE WHEN &quot;strahler&quot; &gt;= 5 THEN 5 ELSE &quot;strahler&quot; END" enableorderby="0" forceraster="0" symbollevels="0">
    <categories>
      <category render="true" symbol="0" value="1" label="order 1"/>
      <category render="true" symbol="1" value="2" label="order 2"/>
      <category render="true" symbol="2" value="3" label="order 3"/>
      <category render="true" symbol="3" value="4" label="order 4"/>
      <category render="true" symbol="4" value="5" label="order 5 and up"/>
    </categories>
    <symbols>
      <symbol type="line" name="0" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="255,255,255,120"/>
            <Option name="line_width" type="QString" value="0.70"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="255,255,255,120"/>
          <prop k="line_width" v="0.70"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="107,174,214,255"/>
            <Option name="line_width" type="QString" value="0.4"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="107,174,214,255"/>
          <prop k="line_width" v="0.4"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
      </symbol>
      <symbol type="line" name="1" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="255,255,255,120"/>
            <Option name="line_width" type="QString" value="0.90"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="255,255,255,120"/>
          <prop k="line_width" v="0.90"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="66,146,198,255"/>
            <Option name="line_width" type="QString" value="0.6"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="66,146,198,255"/>
          <prop k="line_width" v="0.6"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
      </symbol>
      <symbol type="line" name="2" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="255,255,255,120"/>
            <Option name="line_width" type="QString" value="1.20"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="255,255,255,120"/>
          <prop k="line_width" v="1.20"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="33,113,181,255"/>
            <Option name="line_width" type="QString" value="0.9"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="33,113,181,255"/>
          <prop k="line_width" v="0.9"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
      </symbol>
      <symbol type="line" name="3" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="255,255,255,120"/>
            <Option name="line_width" type="QString" value="1.60"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="255,255,255,120"/>
          <prop k="line_width" v="1.60"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="8,81,156,255"/>
            <Option name="line_width" type="QString" value="1.3"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="8,81,156,255"/>
          <prop k="line_width" v="1.3"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
      </symbol>
      <symbol type="line" name="4" alpha="1" clip_to_extent="1" force_rhr="0">
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="255,255,255,120"/>
            <Option name="line_width" type="QString" value="2.10"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="255,255,255,120"/>
          <prop k="line_width" v="2.10"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
        <layer class="SimpleLine" enabled="1" locked="0" pass="0">
          <Option type="Map">
            <Option name="line_color" type="QString" value="8,48,107,255"/>
            <Option name="line_width" type="QString" value="1.8"/>
            <Option name="line_width_unit" type="QString" value="MM"/>
            <Option name="capstyle" type="QString" value="round"/>
            <Option name="joinstyle" type="QString" value="round"/>
            <Option name="line_style" type="QString" value="solid"/>
          </Option>
          <prop k="line_color" v="8,48,107,255"/>
          <prop k="line_width" v="1.8"/>
          <prop k="line_width_unit" v="MM"/>
          <prop k="capstyle" v="round"/>
          <prop k="joinstyle" v="round"/>
          <prop k="line_style" v="solid"/>
        </layer>
      </symbol>
    </symbols>
  </renderer-v2>
</qgis>
